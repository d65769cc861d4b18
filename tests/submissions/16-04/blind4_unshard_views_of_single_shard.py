"""unflatten_shards skips the concatenation when there is only one shard (world 1) and returns reshaped
slices without copying, so the results share memory with the caller's shard. Breaks: "Return a list of new
contiguous tensors, one per shape, holding the original values"."""
EXPECT = {"shard": "fail"}
CELLS = {"shard_impl": '''
def flatten_shard(tensors: list[torch.Tensor], world: int, rank: int) -> torch.Tensor:
    flat = torch.cat([t.reshape(-1) for t in tensors])
    n = flat.numel()
    k = -(-n // world)
    if world * k > n:
        flat = torch.cat([flat, flat.new_zeros(world * k - n)])
    return flat[rank * k:(rank + 1) * k].clone()


def unflatten_shards(shards: list[torch.Tensor], shapes: list) -> list[torch.Tensor]:
    flat = shards[0].reshape(-1) if len(shards) == 1 else torch.cat([s.reshape(-1) for s in shards])
    out, at = [], 0
    for shape in shapes:
        size = math.prod(shape)
        out.append(flat[at:at + size].reshape(shape))
        at += size
    return out
'''}
