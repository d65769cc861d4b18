"""mutates_args="unknown": safe but imprecise, the schema says x is written too."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited("16-01", "ema_impl", ('mutates_args={"avg"}', 'mutates_args="unknown"'))}
