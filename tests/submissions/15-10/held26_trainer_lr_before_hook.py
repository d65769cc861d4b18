"""Wrong (held-out round 26): optimizer_step reads the learning rate to log at its very top, before unscaling,
clipping and on_before_optimizer_step, "the lr of this step, read before anything moves". A callback that sets
the learning rate in on_before_optimizer_step (a manual warm-up, the usual place for it) changes the lr this
step is actually taken with, and the logged "lr" is the stale value from before the hook. Breaks "lr:
optimizer.param_groups[0]["lr"] used for this step, as a float (read it before the scheduler steps ...)" and
the lifecycle order (on_before_optimizer_step, then optimizer step). Input: SGD(lr=0.1) and a callback setting
param_groups[0]["lr"] = 0.05 in on_before_optimizer_step: history logs 0.1 for the first step, which was taken
with lr 0.05."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("        if self.scaler is not None:\n            self.scaler.unscale_(self.optimizer)\n",
     "        lr = float(self.optimizer.param_groups[0][\"lr\"])\n"
     "        if self.scaler is not None:\n            self.scaler.unscale_(self.optimizer)\n"),
    ("        self.call(\"on_before_optimizer_step\")\n        lr = float(self.optimizer.param_groups[0][\"lr\"])\n",
     "        self.call(\"on_before_optimizer_step\")\n"))}
