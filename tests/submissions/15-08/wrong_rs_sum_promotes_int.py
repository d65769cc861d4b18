"""reduce_scatter_shards all-gathers every rank's full tensor and adds them with torch.stack(...).sum(0);
for an integer dtype other than int64, sum() promotes the result to int64, so the shard comes back in the
wrong dtype (the text: "with full's dtype"). Found by a blind batch (issue #19, second truly blind round);
caught by test_reduce_scatter_keeps_dtype since it includes an int32 case (int64 alone hid it)."""
EXPECT = {"shards": "fail"}
BASE = "reference"

CELLS = {
    'shards_impl': 'def _shard_sizes(numel: int, world: int) -> list[int]:\n    return [numel // world + (1 if r < numel % world else 0) for r in range(world)]\n\n\ndef gather_shards(shard, numel):\n    n = dist.get_world_size()\n    sizes = _shard_sizes(numel, n)\n    width = max(sizes)\n    padded = shard.new_zeros(width)\n    padded[:shard.numel()] = shard\n    bufs = [shard.new_empty(width) for _ in range(n)]\n    dist.all_gather(bufs, padded)\n    return torch.cat([b[:k] for b, k in zip(bufs, sizes)])\n\ndef reduce_scatter_shards(full):\n    n, me = dist.get_world_size(), dist.get_rank()\n    everyone = [torch.empty_like(full) for _ in range(n)]\n    dist.all_gather(everyone, full.contiguous())\n    total = torch.stack(everyone).sum(0)\n    return torch.tensor_split(total, n)[me]\n',
}
