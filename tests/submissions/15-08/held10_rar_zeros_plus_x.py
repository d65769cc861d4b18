"""Held-out round 10: ring_all_reduce copies x as zeros_like(x) + x, which turns -0.0 into +0.0, so where every
rank holds -0.0 it returns +0.0 while the sum over the ranks (gloo's all_reduce, IEEE addition) is -0.0. The text
says: return the element-wise sum of x over all ranks (a float dtype, any values)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "ring_all_reduce": "fail", "tree_broadcast": "pass", "shards": "pass",
          "group_sums": "pass"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("    flat = x.reshape(-1).clone()\n", "    flat = (torch.zeros_like(x) + x).reshape(-1)  # a fresh copy\n"))}
