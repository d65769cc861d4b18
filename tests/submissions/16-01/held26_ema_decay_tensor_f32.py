"""Round 26 (held out): decay is put on avg's device as a tensor, torch.tensor(decay, device=avg.device), and the
update is avg.mul_(d).add_(x * (1 - d)). The tensor has the default dtype, float32, so for a float64 avg the factors are
float32-rounded: decay = 0.9 gives 0.89999998 and 1 - d = 0.10000002, an error of about 2e-8 relative on the avg term
and 2e-7 on the x term (exact only for decays such as 0, 1, 0.5, 0.75). Breaks "updates avg in place to
decay * avg + (1 - decay) * x, for float32 and float64 tensors": float64 avg = zeros(3), x = ones(3), decay = 0.9
gives 0.10000002384 instead of 0.1."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "fail", "fused": "pass", "triton": "pass"}
CELLS = {"ema_impl": edited("16-01", "ema_impl", (
    "        avg.mul_(decay).add_(x, alpha=1 - decay)\n",
    "        d = torch.tensor(decay, device=avg.device)\n"
    "        avg.mul_(d).add_(x * (1 - d))\n"))}
