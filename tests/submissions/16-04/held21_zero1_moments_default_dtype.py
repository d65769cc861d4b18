"""Known-wrong zero1_step (held-out round 21): the moments of the shard are made with torch.zeros(k,
device=...), the default dtype (float32), so float64 parameters are updated from float32 moments ("every rank's
params hold exactly what one step of torch.optim.AdamW ... gives" for float64 parameters)."""
from course.grading.class_run.submissions import edited

CELLS = {"zero1_impl": edited("16-04", "zero1_impl", (
    "    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n",
    "    if not state:\n"
    "        state[\"step\"] = 0\n"
    "        state[\"exp_avg\"] = torch.zeros(k, device=shard.device)\n"
    "        state[\"exp_avg_sq\"] = torch.zeros(k, device=shard.device)\n"
    "    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'fail', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
