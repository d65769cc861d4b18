"""Wrong (held-out round 28): validate() stores a COPY of the metrics in self.metrics and passes another object to
on_validation_end. Section 6: "store metrics = {"val_loss": value} in self.metrics, ..., fire
on_validation_end(trainer, metrics), and return metrics": one dict. Input: a callback adds "val_acc" to the
metrics it receives in on_validation_end: trainer.metrics lacks it after validate() (expected trainer.metrics to
be the dict the hook got and validate() returned)."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("        self.metrics = metrics\n", "        self.metrics = dict(metrics)\n"))}
