"""Held-out round 29 (15-09 anomaly): an error that is not anomaly mode's NaN report is re-raised as
`raise err.with_traceback(None)` ("a short, clean error"). It is the same exception object, of the same type and
with the same message, but its traceback now starts in find_nan_origin: the frames of loss_fn (the line that
raised, e.g. `raise ValueError("bad batch")` or the in-place op whose backward failed) are gone.
Breaks "Any other exception (one that is not anomaly mode's NaN report) propagates unchanged": on any loss_fn
that raises, err.__traceback__ no longer reaches loss_fn's code."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "fail", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"anomaly_impl": edited("15-09", "anomaly_impl", (
    "            if found is None:\n                raise\n",
    "            if found is None:\n                raise err.with_traceback(None)\n"))}
