"""Second pass of round 21 (not counted). Wrong: "Overwrite `x` in place with the root's values on every rank,
and return `x`". This version believes send/recv want at least one dimension: a 0-d x travels as a
one-element copy, which it copies back into x and then returns (a view of the copy), not x itself."""
from course.grading.class_run.submissions import edited

EXPECT = {"tree_broadcast": "fail"}
CELLS = {"tree_broadcast_impl": edited(
    "15-08", "tree_broadcast_impl",
    ("    rank, world = dist.get_rank(), dist.get_world_size()\n",
     "    if x.dim() == 0:  # send/recv want at least one dimension\n"
     "        flat = x.reshape(1).clone()\n"
     "        tree_broadcast(flat, src)\n"
     "        x.copy_(flat[0])\n"
     "        return flat[0]\n"
     "    rank, world = dist.get_rank(), dist.get_world_size()\n"))}
