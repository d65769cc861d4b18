"""gather_shards drops the empty pieces before torch.cat, so numel = 0 (every shard empty) calls
torch.cat([]) and raises; the text allows any numel smaller than N. Found by a blind batch (issue #19,
second truly blind round); caught by test_gather_shards_empty_shards, which now has a length-0 case (run
last in its world, so a failure there costs only the empty-shard checks)."""
EXPECT = {"shards": "fail"}
BASE = "reference"

CELLS = {
    'shards_impl': 'def _shard_sizes(numel: int, world: int) -> list[int]:\n    return [numel // world + (1 if r < numel % world else 0) for r in range(world)]\n\n\ndef gather_shards(shard, numel):\n    n = dist.get_world_size()\n    sizes = _shard_sizes(numel, n)\n    width = max(sizes)\n    padded = shard.new_zeros(width)\n    padded[:shard.numel()] = shard\n    bufs = [shard.new_empty(width) for _ in range(n)]\n    dist.all_gather(bufs, padded)\n    return torch.cat([b[:k] for b, k in zip(bufs, sizes) if k > 0])\n\ndef reduce_scatter_shards(full):\n    n, me = dist.get_world_size(), dist.get_rank()\n    total = full.clone()\n    dist.all_reduce(total)\n    return torch.tensor_split(total, n)[me].clone()\n',
}
