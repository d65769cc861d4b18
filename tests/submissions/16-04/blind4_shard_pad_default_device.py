"""The padding is made with torch.zeros(..., dtype=...) and no device, so it lands on the CPU whatever
device the inputs live on (fails for meta or cuda inputs that need padding). Breaks: "Make every tensor you
create on the inputs' device (`t.new_zeros(...)` or `device=t.device`): the same code runs on `cuda:rank` or
the `meta` device."
"""
EXPECT = {"shard": "fail"}
CELLS = {"shard_impl": '''
def flatten_shard(tensors: list[torch.Tensor], world: int, rank: int) -> torch.Tensor:
    flat = torch.cat([t.reshape(-1) for t in tensors])
    n = flat.numel()
    k = -(-n // world)
    if world * k > n:
        flat = torch.cat([flat, torch.zeros(world * k - n, dtype=flat.dtype)])
    return flat[rank * k:(rank + 1) * k].clone()


def unflatten_shards(shards: list[torch.Tensor], shapes: list) -> list[torch.Tensor]:
    flat = torch.cat([s.reshape(-1) for s in shards])
    out, at = [], 0
    for shape in shapes:
        size = math.prod(shape)
        out.append(flat[at:at + size].reshape(shape).clone())
        at += size
    return out
'''}
