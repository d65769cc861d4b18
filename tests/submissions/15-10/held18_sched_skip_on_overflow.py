"""Known-wrong Trainer.optimizer_step (round 18): the popular forum fix for "lr_scheduler.step() before
optimizer.step()" warnings: when the GradScaler skipped the step (inf/nan gradients: its scale went down),
the scheduler is not stepped. The schedule then lags behind global_step by one per overflow: against "the
scheduler is stepped once per optimizer step" (the lifecycle steps it, counts the step and logs a row)."""
from course.grading.class_run.submissions import edited

CELLS = {"trainer_impl": edited("15-10", "trainer_impl", (
    "        if self.scaler is not None:\n            self.scaler.step(self.optimizer)\n"
    "            self.scaler.update()\n",
    "        skipped = False\n        if self.scaler is not None:\n            scale = self.scaler.get_scale()\n"
    "            self.scaler.step(self.optimizer)\n            self.scaler.update()\n"
    "            skipped = self.scaler.get_scale() < scale  # inf/nan gradients: no real step\n"), (
    "        if self.scheduler is not None:\n            self.scheduler.step()\n",
    "        if self.scheduler is not None and not skipped:\n            self.scheduler.step()\n"))}
EXPECT = {"trainer": "fail"}
