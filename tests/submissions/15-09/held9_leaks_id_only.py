"""Held-out round 9: find_leaks calls a tensor born when its id was not alive before the call, without checking
that the weak reference still points at the same object, so a tensor that takes the id of one that died during
the same step (step frees last iteration's scratch tensor, then appends a new one to a list) is never counted
as born; the text warns that a dead tensor's id can be reused."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "fail"}
CELLS = {"leaks_impl": edited(
    "15-09", "leaks_impl",
    ("if key not in seen or seen[key]() is not r()]", "if key not in seen]"))}
