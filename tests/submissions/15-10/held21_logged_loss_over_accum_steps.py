"""Wrong (held-out round 21): optimizer_step logs "loss" as sum(batch losses) / accum_steps. In a full group that
is the mean; in the short last group of an epoch (len(train_loader) not a multiple of accum_steps, flushed at the
epoch's end) it divides by more batches than there were and logs too small a loss. Contradicts '"loss": mean of
the batch losses (floats, not divided by accum_steps) since the previous step'."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("                             \"loss\": sum(self._batch_losses) / len(self._batch_losses),\n",
     "                             \"loss\": sum(self._batch_losses) / self.accum_steps,\n"))}
