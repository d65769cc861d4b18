"""Held-out round 13: view counts elements with functools.reduce(operator.mul, shape) without a start value,
so a view of a 0-dim tensor (or to shape ()) dies with TypeError. The text: "shape and stride are tuples of
ints of equal length (possibly empty)"; PyTorch's torch.tensor(1.).view(1, 1) and .view(-1) work."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail"}
CELLS = {"view_meta_impl": edited(
    "00-01", "view_meta_impl",
    ("numel = math.prod(shape)",
     "import functools, operator\n        numel = functools.reduce(operator.mul, shape)"),
    ("if math.prod(new) != numel:", "if functools.reduce(operator.mul, new) != numel:"))}
