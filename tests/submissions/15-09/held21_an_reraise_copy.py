"""find_nan_origin re-raises another RuntimeError as a new RuntimeError with the same message (raise
RuntimeError(str(err)) from err): the type and the words survive, but the exception the caller catches is not the one
backward raised (its traceback and any attributes are gone), although the text says any other exception "propagates
unchanged"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "fail", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"anomaly_impl": edited("15-09", "anomaly_impl", (
    "            if found is None:\n                raise\n",
    "            if found is None:\n                raise RuntimeError(str(err)) from err\n"))}
