"""Held-out round 13: global_step is incremented at the top of optimizer_step, so on_before_optimizer_step
(and anything reading the step there, such as PrintEvents' "step {global_step + 1}") sees the step
number one too high. The logged rows are unchanged. The lifecycle: "on_before_optimizer_step(trainer);
optimizer step, scaler update, zero_grad, scheduler step, global_step += 1, log one row"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("        if self.scaler is not None:\n            self.scaler.unscale_(self.optimizer)",
     "        self.global_step += 1\n"
     "        if self.scaler is not None:\n            self.scaler.unscale_(self.optimizer)"),
    ("            self.scheduler.step()\n        self.global_step += 1\n", "            self.scheduler.step()\n"))}
