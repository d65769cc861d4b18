"""Held-out round 12 (group_sums, "a group of one rank returns a copy of its x" and "Return a new tensor"): a
rank alone in its group skips the all_reduce and returns x.detach(), a new tensor object that shares x's memory
(writing to the result writes to x), not a copy."""
from course.grading.class_run.submissions import edited

EXPECT = {"group_sums": "fail"}
BASE = "reference"
CELLS = {"group_sums_impl": edited("15-08", "group_sums_impl", (
    "    out = x.clone()\n    dist.all_reduce(out, group=mine)\n",
    "    if len(next(r for r in groups if rank in r)) == 1:\n        return x.detach()\n"
    "    out = x.clone()\n    dist.all_reduce(out, group=mine)\n",
))}
