"""Held-out round 9: the hook converts each output to float32 before taking its statistics ("half outputs
are too coarse"), so a float64 output beyond float32's range (1e300) becomes inf: "finite" says False and
mean/std are inf, although every value is finite. The text: "mean"/"std" are output.mean() and
output.std(), "finite" is True if every output value is finite."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "fail"}
CELLS = {"trace_impl": edited(
    "15-03", "trace_impl",
    ("out = output.detach()", "out = output.detach().float()"))}
