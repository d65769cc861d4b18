"""Round 20 contract walk (not counted): the launcher makes copies only when x is not contiguous
(`if not x.is_contiguous(): x, keep = x.contiguous(), keep.contiguous()`), so a transposed keep with a contiguous
x reaches the kernel as is and is read in memory order, against 'runs it on contiguous copies of x and keep'."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "    x, keep = x.contiguous(), keep.contiguous()\n",
    "    if not x.is_contiguous():\n"
    "        x, keep = x.contiguous(), keep.contiguous()\n"))}
