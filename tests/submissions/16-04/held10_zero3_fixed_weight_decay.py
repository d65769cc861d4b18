"""Held-out round 10: zero3_step passes the default 1e-2 to every layer's AdamW step instead of its
weight_decay argument; the text says one step of torch.optim.AdamW "with these lr, betas, eps and
weight_decay"."""
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "pass", "zero1": "pass", "zero2": "pass", "zero3": "fail", "schedule": "pass", "pipeline": "pass"}
CELLS = {"zero3_impl": edited(
    "16-04", "zero3_impl",
    ("_adamw_shard(shards[i], g, state.setdefault(i, {}), lr, betas, eps, weight_decay)",
     "_adamw_shard(shards[i], g, state.setdefault(i, {}), lr, betas, eps, 1e-2)"))}
