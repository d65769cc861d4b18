"""Held-out round 10: zero1_step passes the default 1e-2 to the AdamW step instead of its weight_decay
argument; the text says one step of torch.optim.AdamW "with these lr, betas, eps and weight_decay"."""
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "pass", "zero1": "fail", "zero2": "pass", "zero3": "pass", "schedule": "pass", "pipeline": "pass"}
CELLS = {"zero1_impl": edited(
    "16-04", "zero1_impl",
    ("    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n    full = shard.new_empty(world * k)\n",
     "    _adamw_shard(shard, g, state, lr, betas, eps, 1e-2)\n    full = shard.new_empty(world * k)\n"))}
