"""Held-out round 10: EarlyStopping reads metrics["val_loss"] whatever its `monitor` says, so
EarlyStopping(monitor="val_acc", mode="max") judges the loss as if it were the accuracy. The text says
EarlyStopping watches one validation metric (the one its `monitor` names)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "pass", "sampler": "pass", "rng": "pass", "callbacks": "fail", "checkpoint": "pass",
          "trainer": "pass", "resume": "pass"}
CELLS = {"callbacks_impl": edited(
    "15-10", "callbacks_impl", ("value = float(metrics[self.monitor])", "value = float(metrics[\"val_loss\"])"))}
