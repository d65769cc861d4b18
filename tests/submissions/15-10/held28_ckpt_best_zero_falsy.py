"""Wrong (held-out round 28): CheckpointCallback treats a best value of 0.0 as "no best yet"
(`not self.best`), so after a metric of exactly 0.0 every later value is "the best so far" and overwrites
best.pt. Section 5: write best.pt when metrics[monitor] is the best value so far (strictly better). Input: mode
"min", val_loss 0.0 then 0.25: best.pt is rewritten with the second (worse) state and best becomes 0.25."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "15-10", "checkpoint_impl",
    ("        better = (self.best is None or",
     "        better = (not self.best or"))}
