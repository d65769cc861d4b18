"""Shards cut with torch.chunk (3, 3, 3, 1 instead of 3, 3, 2, 2), and an all-gather without padding."""
EXPECT = {"shards": "fail"}
CELLS = {
    "shards_impl": '''
def _shard_sizes(numel, world):
    return [numel // world + (1 if r < numel % world else 0) for r in range(world)]


def gather_shards(shard, numel):
    world = dist.get_world_size()
    pieces = [torch.empty_like(shard) for _ in range(world)]
    dist.all_gather(pieces, shard)
    return torch.cat(pieces)[:numel]


def reduce_scatter_shards(full):
    total = full.clone()
    dist.all_reduce(total)
    return torch.chunk(total, dist.get_world_size())[dist.get_rank()]
''',
}
