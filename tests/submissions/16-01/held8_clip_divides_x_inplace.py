"""Wrong (held-out round 8): smooth_clip divides x in place (x.div_(limit)) and returns limit * tanh(x): the
values are right, but the caller's x now holds x / limit. Breaks "... in x's dtype, and it leaves `x`
unchanged" (Exercise 1, second bullet)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "fail", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", (
    "    return limit * torch.tanh(x / limit)\n",
    "    x.div_(limit)\n    return limit * torch.tanh(x)\n"))}
