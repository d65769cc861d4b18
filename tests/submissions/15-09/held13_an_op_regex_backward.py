"""Held-out round 13 (find_nan_origin, "return a dict with "op", the name of that backward node as it appears
in the error"): the node name is read with a pattern for names that end in "Backward" plus a number or not
(SqrtBackward0, Clamp01Backward), so a NaN that anomaly mode reports for a node named otherwise (the
'torch::autograd::CopySlices' node of an in-place op on a view) is not recognised, and the NaN report
propagates as if it were another exception."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "fail"}
BASE = "reference"
CELLS = {"anomaly_impl": edited("15-09", "anomaly_impl", (
    r"""Function '([^']+)' returned nan values""",
    r"""Function '(\w*Backward\w*)' returned nan values""",
))}
