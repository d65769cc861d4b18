"""Held-out round 13: should_stop is set when the counter EQUALS patience. A counter already at patience
(loaded from a checkpoint, where should_stop itself is not saved) goes past it at the next validation
without improvement, and the run never stops. The text: "when the counter reaches `patience`, the
callback sets `trainer.should_stop = True`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"callbacks": "fail"}
CELLS = {"callbacks_impl": edited(
    "15-10", "callbacks_impl",
    ("            if self.wait >= self.patience:", "            if self.wait == self.patience:"))}
