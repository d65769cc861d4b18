"""Held-out round 11, unusual but correct: smooth_clip computes in float64 and casts back to x's dtype
((limit * torch.tanh(x.double() / limit)).to(x.dtype), which keeps x's layout), and its fake kernel runs the
same expression on the fake tensor (metadata only: no data is read, and the strides are those of the real
kernel, which are empty_like's); ema_ updates avg with avg.lerp_(x, 1 - decay), which is
decay * avg + (1 - decay) * x up to rounding, exact at decay 0 and 1, in place and broadcasting x."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {
    "clip_impl": edited(
        "16-01", "clip_impl",
        ("    return limit * torch.tanh(x / limit)\n",
         "    return (limit * torch.tanh(x.double() / limit)).to(x.dtype)\n"),
        ("    return torch.empty_like(x)\n", "    return (limit * torch.tanh(x.double() / limit)).to(x.dtype)\n")),
    "ema_impl": edited(
        "16-01", "ema_impl",
        ("        avg.mul_(decay).add_(x, alpha=1 - decay)\n", "        avg.lerp_(x, 1 - decay)\n")),
}
