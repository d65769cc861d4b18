"""Known-wrong zero1_step (held-out round 14): turns autograd off with torch.set_grad_enabled(False) so that the
update is not recorded, and never turns it back on: the caller's next forward builds no graph ("write under
torch.no_grad()", a scope, not a global setting left behind)."""
from course.grading.class_run.submissions import edited

CELLS = {"zero1_impl": edited("16-04", "zero1_impl", (
    "    rank, world = dist.get_rank(), dist.get_world_size()\n",
    "    torch.set_grad_enabled(False)  # autograd must not record the update\n"
    "    rank, world = dist.get_rank(), dist.get_world_size()\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'fail', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
