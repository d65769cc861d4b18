"""Known-wrong zero2_step (held-out round 29): the learning rate is stored in `state` on the first call (a Python
float, no tensor element) and every later call uses it, ignoring its own `lr`. The text of Exercise 3 says zero2_step
has "the same arguments, the same state rules and the same result as zero1_step", and Exercise 2 says "The caller
may change lr and betas between calls, as a scheduler does: each call uses its own values". Input on which it goes
wrong: any run whose lr changes between calls, e.g. lr=0.1 then lr=0.01: the second step moves the parameters ten
times too far."""
from course.grading.class_run.submissions import edited

CELLS = {"zero2_impl": edited("16-04", "zero2_impl", (
    "    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n",
    "    lr = state.setdefault(\"lr\", float(lr))\n"
    "    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'fail', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
