"""Known-wrong EarlyStopping (round 18): reads metrics["val_loss"] whatever `monitor` says ("the Trainer
only ever reports val_loss"). EarlyStopping(monitor="val_acc", mode="max") then watches the loss, not the
metric it was given: against "EarlyStopping watches one validation metric" (the one named by monitor)."""
from course.grading.class_run.submissions import edited

CELLS = {"callbacks_impl": edited("15-10", "callbacks_impl", (
    "value = float(metrics[self.monitor])",
    "value = float(metrics[\"val_loss\"])  # the Trainer's only metric"))}
EXPECT = {"callbacks": "fail"}
