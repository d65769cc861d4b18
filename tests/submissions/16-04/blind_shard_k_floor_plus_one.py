"""Shard length as n // W + 1 (always pads): when W divides n every shard is one element too long."""
EXPECT = {'shard': 'fail'}
CELLS = {
    'shard_impl': '''
def flatten_shard(tensors, world, rank):
    flat = torch.cat([t.reshape(-1) for t in tensors])
    n = flat.numel()
    k = n // world + 1
    padded = torch.cat([flat, flat.new_zeros(world * k - n)])
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
