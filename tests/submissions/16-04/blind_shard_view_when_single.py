"""A single tensor on one rank: flatten_shard skips the cat and the padding when nothing needs padding,
and returns a view of the input (reshape of a contiguous tensor, then a slice) instead of a new tensor."""
EXPECT = {'shard': 'fail'}
CELLS = {
    'shard_impl': '''
def flatten_shard(tensors, world, rank):
    flat = tensors[0].reshape(-1) if len(tensors) == 1 else torch.cat([t.reshape(-1) for t in tensors])
    n = flat.numel()
    k = -(-n // world)
    if world * k != n:
        flat = torch.cat([flat, flat.new_zeros(world * k - n)])
    return flat[rank * k:(rank + 1) * k]


def unflatten_shards(shards, shapes):
    flat = torch.cat(shards)
    out, start = [], 0
    for shape in shapes:
        n = math.prod(shape)
        out.append(flat[start:start + n].reshape(shape).clone())
        start += n
    return out
''',
}
