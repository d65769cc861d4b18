"""Known-wrong CheckpointCallback (held-out round 12): the best value starts at +inf (mode "min") or 0.0
(mode "max"), so in mode "max" a first validation value <= 0 (a negative score) never writes best.pt.
The text: best.pt is written when metrics[monitor] "is the best value so far" (the first one is)."""
from course.grading.class_run.submissions import edited

CELLS = {"checkpoint_impl": edited("15-10", "checkpoint_impl", (
    """        better = (self.best is None or (value < self.best if self.mode == "min" else value > self.best))""",
    """        best = self.best if self.best is not None else (float("inf") if self.mode == "min" else 0.0)
        better = value < best if self.mode == "min" else value > best"""))}
EXPECT = {"checkpoint": "fail"}
