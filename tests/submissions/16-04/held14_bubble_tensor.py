"""Known-wrong bubble_fraction (held-out round 14): marks the busy slots in an S x T boolean grid and returns
1 - grid.double().mean(), a 0-d tensor, not a Python float (the value is right)."""
from course.grading.class_run.submissions import edited

CELLS = {"schedule_impl": edited("16-04", "schedule_impl", (
    "    busy = len({(t, s) for t, s, _, _ in schedule})\n    return 1.0 - busy / (S * T)\n",
    "    busy = torch.zeros(S, T, dtype=torch.bool)\n"
    "    for t, s, _, _ in schedule:\n"
    "        busy[s, t] = True\n"
    "    return 1 - busy.double().mean()\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'fail', 'pipeline': 'pass'}
