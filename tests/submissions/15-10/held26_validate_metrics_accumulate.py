"""Wrong (held-out round 26): validate() keeps ONE metrics dict for the whole run, Lightning's callback_metrics
style: self.metrics.update(val_loss=value), and passes and returns self.metrics itself. Section 6: "store
metrics = {"val_loss": value} in self.metrics, ..., fire on_validation_end(trainer, metrics), and return
metrics": a new dict per validation. Input: two validations (two epochs, or validate() twice): the dict the first
call returned (and the one a callback kept from on_validation_end) changes to the second val_loss; a key a
callback added to the metrics of epoch 0 is still present in the metrics of epoch 1."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("        metrics = {\"val_loss\": sum(losses) / len(losses) if losses else float(\"nan\")}\n"
     "        self.metrics = metrics\n",
     "        self.metrics.update(val_loss=sum(losses) / len(losses) if losses else float(\"nan\"))\n"
     "        metrics = self.metrics\n"))}
