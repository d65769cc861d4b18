"""Known-wrong zero2_step (held-out round 21): the moments are kept in state but the step count in a
module-level counter, reset whenever state is empty, so two runs interleaved on one rank (two models, two state
dicts) or a run resumed from its state dict share or lose the count ("state is a dict ... that the caller passes
back on every later call on the same rank: keep the step count and the moments there")."""
from course.grading.class_run.submissions import edited

CELLS = {"zero2_impl": edited("16-04", "zero2_impl", (
    "def zero2_step(",
    "_zero2_count = [0]\n\n\ndef zero2_step("), (
    "    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n",
    "    if not state:\n"
    "        _zero2_count[0] = 0\n"
    "        state[\"exp_avg\"], state[\"exp_avg_sq\"] = torch.zeros_like(shard), torch.zeros_like(shard)\n"
    "    _zero2_count[0] += 1\n"
    "    inner = {\"step\": _zero2_count[0] - 1, \"exp_avg\": state[\"exp_avg\"], \"exp_avg_sq\": state[\"exp_avg_sq\"]}\n"
    "    _adamw_shard(shard, g, inner, lr, betas, eps, weight_decay)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'fail', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
