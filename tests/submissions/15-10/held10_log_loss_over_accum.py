"""Held-out round 10: the logged loss adds up loss / accum_steps over the batches of a group; for a full
group that is the mean, but the last group of an epoch with fewer batches (1 of accum_steps=3) logs a third
of its loss. The text says "loss": mean of the batch losses (floats, not divided by accum_steps) since the
previous step."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "pass", "sampler": "pass", "rng": "pass", "callbacks": "pass", "checkpoint": "pass",
          "trainer": "fail", "resume": "pass"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("\"loss\": sum(self._batch_losses) / len(self._batch_losses),",
     "\"loss\": sum(v / self.accum_steps for v in self._batch_losses),"))}
