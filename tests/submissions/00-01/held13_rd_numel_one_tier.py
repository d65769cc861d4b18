"""Held-out round 13: a tensor with a single element counts as a 0-dim tensor ("a one-element tensor is a
scalar"), so a (1,)- or (1, 1)-shaped float64 tensor stops widening a float32 tensor. The text's tiers are
"tensors with at least one dimension, 0-dim tensors, and Python numbers"."""
from course.grading.class_run.submissions import edited

EXPECT = {"result_dtype": "fail"}
CELLS = {"result_dtype_impl": edited(
    "00-01", "result_dtype_impl",
    ("tiers[2 if v.dim() else 1].append(v.dtype)", "tiers[2 if v.numel() != 1 else 1].append(v.dtype)"))}
