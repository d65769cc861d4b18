"""Correct (held-out round 8, unusual): smooth_clip allocates its output with torch.empty_like(x), divides
into it with out=, and finishes with in-place tanh_ and mul_ on that new buffer: the same operations in the
same order as limit * tanh(x / limit), x untouched, the layout of empty_like(x) by construction."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", (
    "    return limit * torch.tanh(x / limit)\n",
    "    out = torch.empty_like(x)\n    torch.div(x, limit, out=out)\n    return out.tanh_().mul_(limit)\n"))}
