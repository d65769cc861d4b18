"""Known-wrong zero3_step (held-out round 21, second pass, not counted): the moments are kept in state but each
layer's step count in a module-level dict, cleared whenever state is empty, so runs made one after the other pass
while two models trained on one rank with their own state dicts share the counts ("state is a dict ... that the
caller passes back on every later call on the same rank: keep the step counts and the moments of this rank's
shards there")."""
from course.grading.class_run.submissions import edited

CELLS = {"zero3_impl": edited("16-04", "zero3_impl", (
    "def zero3_step(",
    "_zero3_counts = {}\n\n\ndef zero3_step("), (
    "    world = dist.get_world_size()\n",
    "    world = dist.get_world_size()\n"
    "    if not state:\n"
    "        _zero3_counts.clear()\n"), (
    "        _adamw_shard(shards[i], g, state.setdefault(i, {}), lr, betas, eps, weight_decay)\n",
    "        st = state.setdefault(i, {})\n"
    "        if \"exp_avg\" not in st:\n"
    "            st[\"exp_avg\"], st[\"exp_avg_sq\"] = torch.zeros_like(shards[i]), torch.zeros_like(shards[i])\n"
    "        _zero3_counts[i] = _zero3_counts.get(i, 0) + 1\n"
    "        inner = {\"step\": _zero3_counts[i] - 1, \"exp_avg\": st[\"exp_avg\"], \"exp_avg_sq\": st[\"exp_avg_sq\"]}\n"
    "        _adamw_shard(shards[i], g, inner, lr, betas, eps, weight_decay)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'fail', 'schedule': 'pass', 'pipeline': 'pass'}
