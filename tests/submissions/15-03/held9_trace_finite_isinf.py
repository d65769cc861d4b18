"""Held-out round 9: "finite" is computed as "no value is infinite" (not torch.isinf(out).any()), so an
output holding NaN (0/0, inf - inf) is reported finite. The text: "finite" is True if every output value
is finite; NaN is not finite."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "fail"}
CELLS = {"trace_impl": edited(
    "15-03", "trace_impl",
    ('"finite": bool(torch.isfinite(out).all())', '"finite": not bool(torch.isinf(out).any())'))}
