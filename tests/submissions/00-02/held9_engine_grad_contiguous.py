"""Held-out round 9: a leaf's first gradient is stored as g.contiguous() (to avoid keeping an expanded,
stride-0 view), which copies only when g is not contiguous; when add hands the same contiguous gradient
to two leaves (as in (a + b).exp().sum()), both .grad attributes are one tensor; the text says each
leaf's .grad shares memory with no other leaf's .grad or .data."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "fail", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("v.grad = g.clone() if v.grad is None else v.grad + g",
     "v.grad = g.contiguous() if v.grad is None else v.grad + g"))}
