"""Wrong (held-out round 21): EarlyStopping.improved starts from a sentinel best of +inf (mode "min") or -inf
(mode "max") instead of treating "no best yet" apart. A first validation of +inf in mode "min" (or -inf in mode
"max", or nan: a run that diverged in its first epoch) is then not "strictly better" than the sentinel: it counts
as a validation without improvement and best stays None. Contradicts "the first value always counts as one"."""
from course.grading.class_run.submissions import edited

EXPECT = {"callbacks": "fail"}
CELLS = {"callbacks_impl": edited(
    "15-10", "callbacks_impl",
    ("        if self.best is None:\n            return True\n        if self.mode == \"min\":\n"
     "            return value < self.best - self.min_delta\n        return value > self.best + self.min_delta\n",
     "        best = self.best if self.best is not None else (math.inf if self.mode == \"min\" else -math.inf)\n"
     "        if self.mode == \"min\":\n"
     "            return value < best - self.min_delta\n"
     "        return value > best + self.min_delta\n"))}
