"""Known-wrong Trainer (held-out round 12): checks max_steps only after an optimizer step, so fit() with
max_steps already reached (max_steps=0, or a run resumed from its final checkpoint) still takes one more
step. The text: fit trains "until max_epochs, max_steps or should_stop"; max_steps stops the run "right
after the optimizer step that reaches it"."""
from course.grading.class_run.submissions import edited

CELLS = {"trainer_impl": edited("15-10", "trainer_impl", (
    "        while self.epoch < self.max_epochs and not self.should_stop and not self.steps_done():",
    "        while self.epoch < self.max_epochs and not self.should_stop:"))}
EXPECT = {"trainer": "fail"}
