"""Uses torch.tensor_split to cut the flat buffer into W pieces without padding: the pieces are uneven
(earlier ranks get one more element) instead of ceil(n/W) each with zeros at the end."""
EXPECT = {'shard': 'fail'}
CELLS = {
    'shard_impl': '''
def flatten_shard(tensors, world, rank):
    flat = torch.cat([t.reshape(-1) for t in tensors])
    k = -(-flat.numel() // world)
    piece = torch.tensor_split(flat, world)[rank]
    if piece.numel() < k:
        piece = torch.cat([piece, piece.new_zeros(k - piece.numel())])
    return piece.clone()


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
