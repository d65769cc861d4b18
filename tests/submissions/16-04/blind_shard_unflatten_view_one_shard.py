"""unflatten_shards skips the cat when there is only one shard (W = 1) and returns views into that shard,
so the results are not new tensors: writing to them changes the caller's shard."""
EXPECT = {'shard': 'fail'}
CELLS = {
    'shard_impl': '''
def flatten_shard(tensors, world, rank):
    flat = torch.cat([t.reshape(-1) for t in tensors])
    n = flat.numel()
    k = -(-n // world)
    padded = torch.cat([flat, flat.new_zeros(world * k - n)])
    return padded[rank * k:(rank + 1) * k].clone()


def unflatten_shards(shards, shapes):
    flat = shards[0] if len(shards) == 1 else torch.cat(shards)
    out, start = [], 0
    for shape in shapes:
        n = math.prod(shape)
        out.append(flat[start:start + n].view(shape))
        start += n
    return out
''',
}
