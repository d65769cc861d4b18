"""The shard length is computed as n // world + 1, which is one too many whenever world divides n (then
every shard is too long and the last holds extra zeros). Breaks: "pad it at the end with zeros to
`world * ceil(n / world)` elements, and return the piece of rank `rank`: elements `rank * k` to
`(rank + 1) * k - 1`, with `k = ceil(n / world)`."
"""
EXPECT = {"shard": "fail"}
CELLS = {"shard_impl": '''
def flatten_shard(tensors: list[torch.Tensor], world: int, rank: int) -> torch.Tensor:
    flat = torch.cat([t.reshape(-1) for t in tensors])
    n = flat.numel()
    k = n // world + 1
    if world * k > n:
        flat = torch.cat([flat, flat.new_zeros(world * k - n)])
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
