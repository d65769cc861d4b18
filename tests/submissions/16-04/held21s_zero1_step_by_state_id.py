"""Known-wrong zero1_step (held-out round 21, second pass, not counted): the moments are kept in state but the step
count in a module-level dict keyed by id(state), so interleaved runs with their own state dicts pass while a run
resumed from a checkpoint (the caller passes back a copy of its state) starts counting again at 1 ("state is a dict
... that the caller passes back on every later call on the same rank: keep the step count and the moments
there")."""
from course.grading.class_run.submissions import edited

CELLS = {"zero1_impl": edited("16-04", "zero1_impl", (
    "def zero1_step(",
    "_zero1_steps = {}\n\n\ndef zero1_step("), (
    "    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n",
    "    if not state:\n"
    "        state[\"exp_avg\"], state[\"exp_avg_sq\"] = torch.zeros_like(shard), torch.zeros_like(shard)\n"
    "    _zero1_steps[id(state)] = _zero1_steps.get(id(state), 0) + 1\n"
    "    inner = {\"step\": _zero1_steps[id(state)] - 1, \"exp_avg\": state[\"exp_avg\"], \"exp_avg_sq\": state[\"exp_avg_sq\"]}\n"
    "    _adamw_shard(shard, g, inner, lr, betas, eps, weight_decay)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'fail', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
