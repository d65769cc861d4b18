"""Round 26 (held out): the kernel folds the dropout scale into x before the GELU product, y = 0.5 * (x * scale) *
(1 + tanh(u)). Mathematically the same, but for a large negative finite x the product x * scale overflows to -inf and
meets 1 + tanh(u) = 0: float32 x = -3e38 with p = 0.5 (scale 2) gives NaN where keep is true, instead of
gelu(-3e38) * 2 = -0. Breaks "For float32 and float64 tensors of any size and any finite values (large ones included),
and any p in [0, 1) ... its result equals F.gelu(x, approximate="tanh") * keep / (1 - p)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "    y = 0.5 * x * (1.0 + t)\n"
    "    tl.store(out_ptr + offs, tl.where(keep != 0, y * scale, 0.0), mask=inside)\n",
    "    y = 0.5 * (x * scale) * (1.0 + t)  # the dropout scale folded in\n"
    "    tl.store(out_ptr + offs, tl.where(keep != 0, y, 0.0), mask=inside)\n"))}
