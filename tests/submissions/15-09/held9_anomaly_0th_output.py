"""Held-out round 9: find_nan_origin matches the error with the notebook's example sentence word for word,
"Function '...' returned nan values in its 0th output", so a backward node whose NaN is in another output
(DivBackward0 of c / x, where x is the divisor: "in its 1th output") is not recognised and its RuntimeError
propagates; the text asks for the node whenever anomaly mode reports a backward function that returned NaN."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "fail", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"anomaly_impl": edited(
    "15-09", "anomaly_impl",
    ("returned nan values\", str(err))", "returned nan values in its 0th output\", str(err))"))}
