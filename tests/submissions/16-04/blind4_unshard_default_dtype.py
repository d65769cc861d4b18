"""unflatten_shards copies the shards into a buffer made with torch.empty(total, device=...), whose dtype
is the default float32: float64 shards come back as float32 (rounded). Breaks: "Return a list of new
contiguous tensors, one per shape, holding the original values, with the shards' dtype and device."
"""
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
    flat = torch.empty(sum(s.numel() for s in shards), device=shards[0].device)
    pos = 0
    for s in shards:
        flat[pos:pos + s.numel()] = s.reshape(-1)
        pos += s.numel()
    out, at = [], 0
    for shape in shapes:
        size = math.prod(shape)
        out.append(flat[at:at + size].reshape(shape).clone())
        at += size
    return out
'''}
