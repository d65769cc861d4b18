"""Held-out round 13: "has not been saved yet" is read as "its step file is not in the folder". With
keep_last=0 the step file is deleted at once, so every later on_batch_end of the same step (the
batches of the next accumulation group) writes last.pt again, now from the middle of a group. The
text: save "when `trainer.global_step` is a positive multiple of `every_n_steps` and has not been saved
yet (accumulation: several batches share one step)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "15-10", "checkpoint_impl",
    ("        if step <= 0 or step % self.every_n_steps != 0 or step == self.last_saved_step:",
     "        if step <= 0 or step % self.every_n_steps != 0 or os.path.exists(\n"
     "                os.path.join(self.dirpath, f\"step-{step:06d}.pt\")):"))}
