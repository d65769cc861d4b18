"""ZeRO-3 that all-reduces each layer's full gradient and slices its shard, instead of a reduce-scatter."""
from course.grading.class_run.submissions import edited

EXPECT = {"zero3": "fail"}
CELLS = {"zero3_impl": edited("16-04", "zero3_impl", (
    "        full = torch.cat([flatten_shard(list(grads[:-1]), world, r) for r in range(world)])\n"
    "        g = torch.empty_like(shards[i])\n"
    "        dist.reduce_scatter_single(g, full)\n",
    "        full = torch.cat([flatten_shard(list(grads[:-1]), world, r) for r in range(world)])\n"
    "        dist.all_reduce(full)\n"
    "        g = full[dist.get_rank() * shards[i].numel():(dist.get_rank() + 1) * shards[i].numel()].clone()\n"))}
