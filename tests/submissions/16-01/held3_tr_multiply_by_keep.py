"""Wrong (held-out round 3): the kernel stores gelu(x) * scale * keep (multiplying by the mask instead of
choosing 0 where keep is false); for an x whose gelu(x) * scale overflows to inf (float32 near its largest
value, p > 0), a dropped element becomes inf * 0 = nan, where F.gelu(x) * keep / (1 - p) gives 0."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "    tl.store(out_ptr + offs, tl.where(keep != 0, y * scale, 0.0), mask=inside)\n",
    "    tl.store(out_ptr + offs, y * scale * keep.to(y.dtype), mask=inside)\n"))}
