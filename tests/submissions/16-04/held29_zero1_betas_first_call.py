"""Known-wrong zero1_step (held-out round 29): the betas are stored in `state` on the first call (as a Python tuple,
so no tensor element is added) and every later call uses those, ignoring its own `betas` argument. The text says
"The caller may change lr and betas between calls, as a scheduler does: each call uses its own values ... (bias
corrections 1 - β₁ᵗ and 1 - β₂ᵗ with this call's betas)". Input on which it goes wrong: any run whose betas change
between calls, e.g. betas=(0.9, 0.999) on step 1 and (0.5, 0.9) on step 2: the second step's moments and bias
corrections use 0.9 and 0.999."""
from course.grading.class_run.submissions import edited

CELLS = {"zero1_impl": edited("16-04", "zero1_impl", (
    "    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n",
    "    betas = state.setdefault(\"betas\", tuple(betas))\n"
    "    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'fail', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
