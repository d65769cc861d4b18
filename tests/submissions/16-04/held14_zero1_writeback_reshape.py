"""Known-wrong zero1_step (held-out round 14): writes the new values back with p.reshape(-1).copy_(...), which
writes through for contiguous parameters but into a temporary copy for a non-contiguous one, whose values then
never change ("uneven shapes (0-d, empty and non-contiguous ones included)" with "write the new values into the
tensors of params in place")."""
from course.grading.class_run.submissions import edited

CELLS = {"zero1_impl": edited("16-04", "zero1_impl", (
    "    _write_back(params, full)\n",
    "    start = 0\n"
    "    with torch.no_grad():\n"
    "        for p in params:\n"
    "            p.reshape(-1).copy_(full[start:start + p.numel()])\n"
    "            start += p.numel()\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'fail', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
