"""Known-wrong zero1_step (held-out round 21): the write-back switches grad mode off with
torch.set_grad_enabled(False) and then on again with torch.set_grad_enabled(True), so a caller that called it
under torch.no_grad() gets grad mode back on ("write under torch.no_grad(), a context that gives the caller back
its grad mode")."""
from course.grading.class_run.submissions import edited

CELLS = {"zero1_impl": edited("16-04", "zero1_impl", (
    "    _write_back(params, full)\n    ### END SOLUTION",
    "    torch.set_grad_enabled(False)\n"
    "    start = 0\n"
    "    for p in params:\n"
    "        p.copy_(full[start:start + p.numel()].view_as(p))\n"
    "        start += p.numel()\n"
    "    torch.set_grad_enabled(True)\n"
    "    ### END SOLUTION"))}
EXPECT = {'shard': 'pass', 'zero1': 'fail', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
