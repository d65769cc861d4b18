"""flatten_shard takes a shortcut when a single tensor splits evenly: it slices the reshaped input, so the
result is a view of the caller's tensor and writing into the shard changes the input. Breaks: "Return a new
1-D tensor (never a view of an input) with the inputs' dtype and device, and leave the inputs unchanged."
"""
EXPECT = {"shard": "fail"}
CELLS = {"shard_impl": '''
def flatten_shard(tensors: list[torch.Tensor], world: int, rank: int) -> torch.Tensor:
    if len(tensors) == 1 and tensors[0].numel() % world == 0:
        whole = tensors[0].reshape(-1)
        step = whole.numel() // world
        return whole[rank * step:(rank + 1) * step]
    flat = torch.cat([t.reshape(-1) for t in tensors])
    n = flat.numel()
    k = -(-n // world)
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
