# zero2_step keeps running products beta1**t and beta2**t in state instead of a step count: equal for
# constant betas, wrong when the caller changes betas between calls (OneCycleLR cycles beta1), since
# torch.optim.AdamW corrects with the current betas to the power of the step count.
from course.grading.class_run.submissions import edited

EXPECT = {"zero2": "fail"}
CELLS = {"zero2_impl": edited("16-04", "zero2_impl", (
    "    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n",
    "    b1, b2 = betas\n"
    "    if \"exp_avg\" not in state:\n"
    "        state[\"exp_avg\"], state[\"exp_avg_sq\"] = torch.zeros_like(shard), torch.zeros_like(shard)\n"
    "        state[\"b1_pow\"], state[\"b2_pow\"] = 1.0, 1.0\n"
    "    state[\"b1_pow\"] *= b1\n"
    "    state[\"b2_pow\"] *= b2\n"
    "    m, v = state[\"exp_avg\"], state[\"exp_avg_sq\"]\n"
    "    shard.mul_(1 - lr * weight_decay)\n"
    "    m.lerp_(g, 1 - b1)\n"
    "    v.mul_(b2).addcmul_(g, g, value=1 - b2)\n"
    "    denom = (v.sqrt() / math.sqrt(1 - state[\"b2_pow\"])).add_(eps)\n"
    "    shard.addcdiv_(m, denom, value=-lr / (1 - state[\"b1_pow\"]))\n"))}
