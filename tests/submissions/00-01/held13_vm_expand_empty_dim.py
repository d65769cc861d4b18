"""Held-out round 13: expand lets a dimension of size 0 (as well as size 1) take any size ("a dimension that
holds at most one element can be broadcast"). The text: "Raise RuntimeError where PyTorch's ... expand does:
... an expand that changes a size other than 1" ((0,).expand(5) raises in PyTorch)."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", ("elif have == 1:", "elif have <= 1:"))}
