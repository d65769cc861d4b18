"""Held-out round 3: reduce_scatter_shards returns torch.zeros(0, device=...) at once for an empty full: float32
whatever full's dtype (the task says the shard has full's dtype)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "ring_all_reduce": "pass", "tree_broadcast": "pass", "shards": "fail",
          "group_sums": "pass"}
CELLS = {"shards_impl": edited(
    "15-08", "shards_impl",
    ("    rank, world = dist.get_rank(), dist.get_world_size()\n    sizes = _shard_sizes(full.numel(), world)\n",
     "    if full.numel() == 0:\n        return torch.zeros(0, device=full.device)\n"
     "    rank, world = dist.get_rank(), dist.get_world_size()\n    sizes = _shard_sizes(full.numel(), world)\n"))}
