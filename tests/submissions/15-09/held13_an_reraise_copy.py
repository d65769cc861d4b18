"""Round 13, after the count (find_nan_origin, "Any other exception (one that is not anomaly mode's NaN report)
propagates unchanged"): a RuntimeError that is not the NaN report is raised again as a new RuntimeError with the
same message ("from None", for a shorter traceback), so what reaches the caller is not the loss's own exception:
its traceback starts in find_nan_origin and the original frames are gone."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "fail"}
BASE = "reference"
CELLS = {"anomaly_impl": edited("15-09", "anomaly_impl", (
    "            if found is None:\n                raise\n",
    "            if found is None:\n                raise RuntimeError(str(err)) from None\n",
))}
