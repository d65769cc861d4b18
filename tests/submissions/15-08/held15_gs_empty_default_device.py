"""Wrong: "Make every tensor you create on the input's device (`shard.new_zeros(...)` ...)". For numel = 0
this version returns `torch.empty(0, dtype=shard.dtype)` at once: the right (empty) value and dtype, but on
the default device, not on the shard's."""
from course.grading.class_run.submissions import edited

EXPECT = {"shards": "fail"}
CELLS = {"shards_impl": edited(
    "15-08", "shards_impl",
    ("    world = dist.get_world_size()\n    sizes = _shard_sizes(numel, world)\n",
     "    if numel == 0:  # nothing to gather\n"
     "        return torch.empty(0, dtype=shard.dtype)\n"
     "    world = dist.get_world_size()\n    sizes = _shard_sizes(numel, world)\n"))}
