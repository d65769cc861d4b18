"""Known-wrong EarlyStopping (held-out round 12): starts its comparison from 0.0 in mode "max" ("a metric
like accuracy is never negative"), so a first value <= min_delta (a negative score, or a log-likelihood)
does not count as an improvement. The text: "the first value always counts as one"."""
from course.grading.class_run.submissions import edited

CELLS = {"callbacks_impl": edited("15-10", "callbacks_impl", (
    """        if self.best is None:
            return True
        if self.mode == "min":
            return value < self.best - self.min_delta
        return value > self.best + self.min_delta""",
    """        best = self.best if self.best is not None else (float("inf") if self.mode == "min" else 0.0)
        if self.mode == "min":
            return value < best - self.min_delta
        return value > best + self.min_delta"""))}
EXPECT = {"callbacks": "fail"}
