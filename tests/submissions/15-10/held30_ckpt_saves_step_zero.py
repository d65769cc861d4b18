"""Wrong (held-out round 30): CheckpointCallback.on_batch_end drops the "positive" of section 5 ("when
trainer.global_step is a positive multiple of every_n_steps and has not been saved yet"): 0 is a multiple of
every n. Input: accum_steps=2 (or any on_batch_end before the first optimizer step, global_step 0): the first
batch writes step-000000.pt and last.pt holding the untrained model."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "15-10", "checkpoint_impl",
    ("        if step <= 0 or step % self.every_n_steps != 0 or step == self.last_saved_step:\n",
     "        if step % self.every_n_steps != 0 or step == self.last_saved_step:\n"))}
