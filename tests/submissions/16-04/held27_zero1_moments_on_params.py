"""Known-wrong zero1_step (held-out round 27): the moments are kept for the WHOLE flat parameter, as an attribute
of the first parameter tensor (DDP's optimizer state, nothing sharded); every rank runs the full update and the
shards are still all-gathered. `state` only holds a step count. The text says "state is a dict ... keep the step
count and the moments there" and "Keep moments for this rank's shard only (the shard of the flat parameter that
flatten_shard(params, W, rank) gives)". Input on which it goes wrong: any run on 2 or more ranks: every rank keeps
2n moment elements (outside state), W times what the text allows."""
from course.grading.class_run.submissions import edited

CELLS = {"zero1_impl": edited("16-04", "zero1_impl", (
    "    shard = flatten_shard([p.detach() for p in params], world, rank)\n"
    "    g = flatten_shard([grad], world, rank)\n"
    "    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n",
    "    whole = flatten_shard([p.detach() for p in params], 1, 0)\n"
    "    inner = getattr(params[0], '_zero1_moments', None)\n"
    "    if inner is None or 'step' not in state:\n"
    "        inner = {}\n"
    "        params[0]._zero1_moments = inner\n"
    "    _adamw_shard(whole, flatten_shard([grad], 1, 0), inner, lr, betas, eps, weight_decay)\n"
    "    state['step'] = inner['step']\n"
    "    shard = flatten_shard([whole], world, rank)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'fail', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
