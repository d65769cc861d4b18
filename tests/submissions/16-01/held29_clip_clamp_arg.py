"""Round 29 (held out): the kernel clamps x / limit to [-10, 10] before the tanh ("tanh(10) is 1 for all practical
purposes", an overflow guard). In float32 tanh(10) rounds to 1, but in float64 tanh(10) = 0.9999999958776927. Breaks
"returns limit * tanh(x / limit) ... It stays finite and saturates at ±limit for inputs as large as ±1e300 in float64;
±inf gives ±limit": smooth_clip(x, 1.0) on float64 x = 1e30 (or 1e300, inf, 15.0) gives 0.9999999958776927 instead
of 1.0 (a relative error of 4e-9, some 2e7 ulps)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "fail", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", (
    "    return limit * torch.tanh(x / limit)\n",
    "    return limit * torch.tanh((x / limit).clamp(-10.0, 10.0))  # tanh(10) is 1 for all practical purposes\n"))}
