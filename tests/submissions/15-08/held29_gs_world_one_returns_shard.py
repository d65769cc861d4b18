"""Wrong: "each call returns a new tensor" (and `flat` itself, not the caller's memory). With one rank
the only shard is the whole tensor, so this version returns `shard` as it is when the world has one
rank: the result is the caller's input tensor (writing into it changes `shard`). Worlds of 2 or more
ranks run the reference."""
from course.grading.class_run.submissions import edited

EXPECT = {"shards": "fail"}
CELLS = {"shards_impl": edited(
    "15-08", "shards_impl",
    ("    world = dist.get_world_size()\n    sizes = _shard_sizes(numel, world)\n",
     "    world = dist.get_world_size()\n"
     "    if world == 1:  # the only shard is the whole tensor\n"
     "        return shard\n"
     "    sizes = _shard_sizes(numel, world)\n"))}
