"""Known-wrong zero1_step (held-out round 17): the new values are written through p.reshape(-1).copy_(...). For a
contiguous parameter reshape is a view and the write lands; for a non-contiguous one reshape returns a copy and the
write is lost ("params ... (0-d, empty and non-contiguous ones included)"; "Write the new values into the tensors
of params in place")."""
from course.grading.class_run.submissions import edited

CELLS = {"zero1_impl": edited("16-04", "zero1_impl", (
    "    _write_back(params, full)\n    ### END SOLUTION",
    "    start = 0\n"
    "    with torch.no_grad():\n"
    "        for p in params:\n"
    "            p.reshape(-1).copy_(full[start:start + p.numel()])\n"
    "            start += p.numel()\n"
    "    ### END SOLUTION"))}
EXPECT = {'shard': 'pass', 'zero1': 'fail', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
