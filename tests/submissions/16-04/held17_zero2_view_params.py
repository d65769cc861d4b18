"""Known-wrong zero2_step (held-out round 17): the parameters are read with p.detach().view(-1), which raises for
a non-contiguous parameter ("the same arguments ... as zero1_step": params of "uneven shapes (0-d, empty and
non-contiguous ones included)")."""
from course.grading.class_run.submissions import edited

CELLS = {"zero2_impl": edited("16-04", "zero2_impl", (
    "    shard = flatten_shard([p.detach() for p in params], world, rank)\n",
    "    shard = flatten_shard([p.detach().view(-1) for p in params], world, rank)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'fail', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
