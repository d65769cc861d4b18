"""Held-out round 10, correct (written as wrong, reclassified): ring_all_reduce copies x as zeros_like(x) + x, which
turns -0.0 into +0.0, so where every rank holds -0.0 it returns +0.0. gloo's ring keeps -0.0 there, but PyTorch's
own sum does not (torch.stack([x0, x1]).sum(0) of two -0.0 is +0.0, its accumulator starts at +0.0), and the text
asks only for "the element-wise sum of x over all ranks": defensible, so it must keep full marks."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "ring_all_reduce": "pass", "tree_broadcast": "pass", "shards": "pass",
          "group_sums": "pass"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("    flat = x.reshape(-1).clone()\n", "    flat = (torch.zeros_like(x) + x).reshape(-1)  # a fresh copy\n"))}
