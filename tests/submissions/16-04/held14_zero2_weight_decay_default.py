"""Known-wrong zero2_step (held-out round 14): passes AdamW's default weight decay 1e-2 to the shard update instead
of the call's weight_decay argument ("one step of torch.optim.AdamW with these lr, betas, eps and weight_decay")."""
from course.grading.class_run.submissions import edited

CELLS = {"zero2_impl": edited("16-04", "zero2_impl", (
    "_adamw_shard(shard, g, state, lr, betas, eps, weight_decay)",
    "_adamw_shard(shard, g, state, lr, betas, eps, 1e-2)"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'fail', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
