"""find_nan_origin recognises anomaly mode's report only in the form the text's example shows, "returned nan values
in its 0th output": a backward node whose NaN is in another output (x[0] / x[1] at x = [0, 0]: DivBackward0 returns
inf for the numerator and nan for the denominator, "in its 1th output") is not recognised, and the error propagates
instead of the dict, although the text asks for the dict whenever "anomaly mode reports a backward function that
returned NaN"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "fail", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"anomaly_impl": edited("15-09", "anomaly_impl", (
    "returned nan values\", str(err))",
    "returned nan values in its 0th output\", str(err))"))}
