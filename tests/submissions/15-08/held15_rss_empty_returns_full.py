"""Wrong: "each call returns a new tensor" (and "Neither function modifies its input": the result is not the
input). For an empty `full` this version returns `full` itself: shape, dtype and device are right, but it is
the caller's own tensor, not a new one (ring_all_reduce's text and check say the same for an empty x)."""
from course.grading.class_run.submissions import edited

EXPECT = {"shards": "fail"}
CELLS = {"shards_impl": edited(
    "15-08", "shards_impl",
    ("    rank, world = dist.get_rank(), dist.get_world_size()\n    sizes = _shard_sizes(full.numel(), world)\n",
     "    if full.numel() == 0:  # every shard of an empty sum is empty\n"
     "        return full\n"
     "    rank, world = dist.get_rank(), dist.get_world_size()\n    sizes = _shard_sizes(full.numel(), world)\n"))}
