"""Known-wrong flatten_shard (held-out round 27): the shard length is k = max(1, ceil(n / world)), "so that no
piece is empty". The text says "tensors is a non-empty list of tensors ... of any shapes (0-d and empty tensors
included)" and "return the piece of rank rank: elements rank * k to (rank + 1) * k - 1, with k = ceil(n / world)".
Input on which it goes wrong: a list of empty tensors only (e.g. [torch.empty(0), torch.empty(2, 0)], n = 0) on
2 ranks: every piece must be empty (k = 0), this one returns one padding zero per rank."""
from course.grading.class_run.submissions import edited

CELLS = {"shard_impl": edited("16-04", "shard_impl", (
    "    k = -(-flat.numel() // world)\n",
    "    k = max(1, -(-flat.numel() // world))\n"))}
EXPECT = {'shard': 'fail', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
