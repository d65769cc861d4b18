"""Held-out round 3: gather_shards returns torch.empty(0, device=...) at once when numel is 0: float32 whatever
the shards' dtype (the task says flat has shard's dtype, numel 0 included)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "ring_all_reduce": "pass", "tree_broadcast": "pass", "shards": "fail",
          "group_sums": "pass"}
CELLS = {"shards_impl": edited(
    "15-08", "shards_impl",
    ("    world = dist.get_world_size()\n    sizes = _shard_sizes(numel, world)\n",
     "    if numel == 0:\n        return torch.empty(0, device=shard.device)\n"
     "    world = dist.get_world_size()\n    sizes = _shard_sizes(numel, world)\n"))}
