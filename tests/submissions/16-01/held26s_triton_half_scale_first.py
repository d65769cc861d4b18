"""Round 26, second pass (not counted): the kernel folds the constants together, y = (0.5 * scale) * x * (1 + t).
For scale up to about 2.2 (p up to 0.55) (0.5 * scale) * x stays finite for every finite x, but for a larger p it
overflows on a large negative finite x and meets 1 + t = 0: float32 x = -0.9 * 3.4e38 with p = 0.75 (scale 4) gives
NaN where keep is true, instead of gelu(x) * 4 = -0. Breaks "For float32 and float64 tensors of any size and any finite
values (large ones included), and any p in [0, 1) ... its result equals F.gelu(x, approximate="tanh") * keep /
(1 - p)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "    y = 0.5 * x * (1.0 + t)\n"
    "    tl.store(out_ptr + offs, tl.where(keep != 0, y * scale, 0.0), mask=inside)\n",
    "    y = (0.5 * scale) * x * (1.0 + t)  # the constants folded together\n"
    "    tl.store(out_ptr + offs, tl.where(keep != 0, y, 0.0), mask=inside)\n"))}
