"""Known-wrong zero1_step (held-out round 29): the second moment is updated as `v.mul_(b2).add_(g * g, alpha=1 - b2)`,
squaring the gradient BEFORE scaling it, where torch.optim.AdamW computes `v.mul_(b2).addcmul_(g, g, value=1 - b2)`
((1 - b2) * g first, then * g). For float32 gradients above about 1.8e19 in magnitude g * g overflows to inf, v is
inf, the update m / (sqrt(v) + eps) is 0 and the parameter only decays, where AdamW moves it by about lr. The text
says "every rank's params hold exactly what one step of torch.optim.AdamW ... gives". Input on which it goes wrong:
float32 parameters [1.0, -2.0] with mean gradient [3e19, -5e19], lr=0.1: AdamW gives [0.899, -1.898], this gives
[0.9999, -1.9998]."""
from course.grading.class_run.submissions import edited

CELLS = {"zero1_impl": edited("16-04", "zero1_impl", (
    "    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n",
    "    if \"step\" not in state:\n"
    "        state[\"step\"] = 0\n"
    "        state[\"exp_avg\"] = torch.zeros_like(shard)\n"
    "        state[\"exp_avg_sq\"] = torch.zeros_like(shard)\n"
    "    state[\"step\"] += 1\n"
    "    t, (b1, b2) = state[\"step\"], betas\n"
    "    m, v = state[\"exp_avg\"], state[\"exp_avg_sq\"]\n"
    "    shard.mul_(1 - lr * weight_decay)\n"
    "    m.lerp_(g, 1 - b1)\n"
    "    v.mul_(b2).add_(g * g, alpha=1 - b2)\n"
    "    denom = (v.sqrt() / math.sqrt(1 - b2 ** t)).add_(eps)\n"
    "    shard.addcdiv_(m, denom, value=-lr / (1 - b1 ** t))\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'fail', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
