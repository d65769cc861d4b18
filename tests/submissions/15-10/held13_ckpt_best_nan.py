"""Held-out round 13 (found after the blind count: the twin of held13_es_nan_improves in CheckpointCallback):
"better" is written as the negation of "not better", `not (value >= best)`. A nan validation then rewrites
best.pt and becomes the best, and every later value is "better" than nan. The text: write best.pt when
`metrics[monitor]` "is the best value so far (strictly better)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "15-10", "checkpoint_impl",
    ("(value < self.best if self.mode == \"min\" else value > self.best)",
     "(not (value >= self.best) if self.mode == \"min\" else not (value <= self.best))"))}
