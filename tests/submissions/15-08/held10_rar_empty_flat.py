"""Held-out round 10: ring_all_reduce returns early on an empty x with a new 1-D empty tensor, shape (0,), whatever
x's shape is: an x of shape (3, 0) gets back shape (0,). The text says: any shape (an empty one too); return a new
tensor of x's shape and dtype."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "ring_all_reduce": "fail", "tree_broadcast": "pass", "shards": "pass",
          "group_sums": "pass"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("    rank, world = dist.get_rank(), dist.get_world_size()\n    flat = x.reshape(-1).clone()\n",
     "    rank, world = dist.get_rank(), dist.get_world_size()\n"
     "    if x.numel() == 0:  # nothing to add up\n"
     "        return x.new_empty(0)\n"
     "    flat = x.reshape(-1).clone()\n"))}
