"""Held-out round 10: reduce_scatter_shards skips the padding when N divides the length and all-reduces full itself
in place, then returns a copy of its shard: the shard is right, but the caller's full now holds the total. The text
says: neither function modifies its input."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "ring_all_reduce": "pass", "tree_broadcast": "pass", "shards": "fail",
          "group_sums": "pass"}
CELLS = {"shards_impl": edited(
    "15-08", "shards_impl",
    ("    sizes = _shard_sizes(full.numel(), world)\n    longest = max(sizes)\n",
     "    sizes = _shard_sizes(full.numel(), world)\n"
     "    if full.numel() % world == 0:  # equal shards: no padding needed\n"
     "        dist.all_reduce(full)\n"
     "        return torch.tensor_split(full, world)[rank].clone()\n"
     "    longest = max(sizes)\n"))}
