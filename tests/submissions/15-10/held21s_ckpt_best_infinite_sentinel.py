"""Wrong (held-out round 21, second pass; not counted): CheckpointCallback.on_validation_end compares the monitored
value with a sentinel best of +inf (mode "min") or -inf (mode "max") when no best exists yet. A first monitored
value of +inf in mode "min" (-inf in mode "max": a run whose first validation diverged) is not strictly better
than the sentinel, so no best.pt is written and best stays None. Contradicts "metrics[monitor] is the best value
so far" (the first value is the best so far, whatever it is)."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "15-10", "checkpoint_impl",
    ("        better = (self.best is None or (value < self.best if self.mode == \"min\" else value > self.best))\n",
     "        best = self.best if self.best is not None else (math.inf if self.mode == \"min\" else -math.inf)\n"
     "        better = value < best if self.mode == \"min\" else value > best\n"))}
