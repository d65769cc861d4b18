"""Creates the padding with torch.zeros(pad, dtype=...) without device=: on the meta device or cuda:rank
the cat fails; the text says to make every tensor on the inputs' device."""
EXPECT = {'shard': 'fail'}
CELLS = {
    'shard_impl': '''
def flatten_shard(tensors, world, rank):
    flat = torch.cat([t.reshape(-1) for t in tensors])
    n = flat.numel()
    k = -(-n // world)
    padded = torch.cat([flat, torch.zeros(world * k - n, dtype=flat.dtype)])
    return padded[rank * k:(rank + 1) * k].clone()


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
