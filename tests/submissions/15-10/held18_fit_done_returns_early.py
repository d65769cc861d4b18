"""Known-wrong Trainer.fit (round 18): returns at once when max_steps is already reached ("nothing to
do"), before train() mode, zero_grad and on_fit_start / on_fit_end: against the lifecycle (on_fit_start
... on_fit_end around any run) and "A run that has already reached max_steps when fit starts takes no
step at all" (no step, but still a run)."""
from course.grading.class_run.submissions import edited

CELLS = {"trainer_impl": edited("15-10", "trainer_impl", (
    "            self.load_checkpoint(ckpt_path)\n",
    "            self.load_checkpoint(ckpt_path)\n        if self.steps_done():\n"
    "            return self  # nothing left to do\n"))}
EXPECT = {"trainer": "fail"}
