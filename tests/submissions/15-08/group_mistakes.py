"""Each rank creates only its own group (the ranks disagree about which group is which), and a
reduce-scatter that hands back a view of its padded buffer in float32."""
EXPECT = {"group_sums": "fail", "shards": "fail"}
CELLS = {
    "group_sums_impl": '''
def group_sums(x, groups):
    rank = dist.get_rank()
    mine = next(g for g in groups if rank in g)
    group = dist.new_group(mine)
    out = x.clone()
    dist.all_reduce(out, group=group)
    return out
''',
    "shards_impl": '''
def _shard_sizes(numel, world):
    return [numel // world + (1 if r < numel % world else 0) for r in range(world)]


def gather_shards(shard, numel):
    world = dist.get_world_size()
    sizes = _shard_sizes(numel, world)
    padded = torch.zeros(max(sizes), dtype=shard.dtype)
    padded[: shard.numel()] = shard
    pieces = [torch.empty_like(padded) for _ in range(world)]
    dist.all_gather(pieces, padded)
    return torch.cat([p[:n] for p, n in zip(pieces, sizes)])


def reduce_scatter_shards(full):
    rank, world = dist.get_rank(), dist.get_world_size()
    sizes = _shard_sizes(full.numel(), world)
    inputs = [torch.zeros(max(sizes)) for _ in range(world)]
    for buf, piece in zip(inputs, torch.tensor_split(full, world)):
        buf[: piece.numel()] = piece
    out = torch.empty(max(sizes))
    dist.reduce_scatter(out, inputs)
    return out[: sizes[rank]]
''',
}
