"""Round 20 (held out): the kernel stores y * scale * keep instead of choosing 0 where keep is false: for a
large finite x whose gelu(x) * scale overflows, a dropped element gives inf * 0 = NaN where the text says 0."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "    tl.store(out_ptr + offs, tl.where(keep != 0, y * scale, 0.0), mask=inside)\n",
    "    tl.store(out_ptr + offs, y * scale * keep.to(y.dtype), mask=inside)\n"))}
