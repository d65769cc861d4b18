"""Held-out round 11: the Triton kernel applies the mask by multiplication, y * scale * keep, instead of
selecting 0 where keep is false. For finite moderate x that is the same, but where gelu(x) * scale overflows
(float32 x near 3e38 with p > 0, float64 x near 1.7e308) a dropped element becomes inf * 0 = nan, where
F.gelu(x, approximate="tanh") * keep / (1 - p) gives 0. The text says the kernel "stores gelu(x) * scale
(tanh approximation) where keep is true and 0 where it is false", and that for "any finite values (large
ones included), its result equals F.gelu(x, approximate="tanh") * keep / (1 - p)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited(
    "16-01", "triton_impl",
    ("    tl.store(out_ptr + offs, tl.where(keep != 0, y * scale, 0.0), mask=inside)\n",
     "    tl.store(out_ptr + offs, y * scale * keep.to(y.dtype), mask=inside)\n"))}
