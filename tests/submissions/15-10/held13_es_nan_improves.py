"""Held-out round 13: "no improvement" is written as `value >= best - min_delta` and an improvement as
its negation. A nan validation loss (a diverged run) is then an improvement: it becomes the best, the
counter resets, and every later value is "better" than nan, so the run never stops. The text: an
improvement means "strictly better than best - min_delta"; nan is better than nothing."""
from course.grading.class_run.submissions import edited

EXPECT = {"callbacks": "fail"}
CELLS = {"callbacks_impl": edited(
    "15-10", "callbacks_impl",
    ("            return value < self.best - self.min_delta\n        return value > self.best + self.min_delta",
     "            return not (value >= self.best - self.min_delta)\n"
     "        return not (value <= self.best + self.min_delta)"))}
