"""Held-out round 3, correct written differently: ring_pass with isend/irecv into x.new_empty; ring_all_reduce
pads the flat tensor to N * ceil(n / N) so that every chunk has one length, runs the ring on views of the
padded buffer and trims (exactly 2(N-1) ceil(n/N) elements a rank); tree_broadcast by rounds of doubling
distance on relative ranks; shards padded with F.pad and gathered with all_gather_into_tensor."""
EXPECT = {t: "pass" for t in ["ring_pass", "ring_all_reduce", "tree_broadcast", "shards", "group_sums"]}
CELLS = {
    "ring_pass_impl": '''
def ring_pass(x):
    rank, world = dist.get_rank(), dist.get_world_size()
    out = torch.empty_like(x, memory_format=torch.contiguous_format)
    send = dist.isend(x.contiguous(), (rank + 1) % world)
    recv = dist.irecv(out, (rank - 1) % world)
    recv.wait()
    send.wait()
    return out
''',
    "ring_all_reduce_impl": '''
def ring_all_reduce(x):
    rank, world = dist.get_rank(), dist.get_world_size()
    n = x.numel()
    c = -(-n // world)
    buf = x.new_zeros(world * c)
    buf[:n] = x.reshape(-1)
    chunk = lambda i: buf[(i % world) * c:(i % world + 1) * c]
    tmp = x.new_empty(c)
    right, left = (rank + 1) % world, (rank - 1) % world
    for s in range(world - 1):
        a = dist.isend(chunk(rank - s), right)
        b = dist.irecv(tmp, left)
        b.wait()
        a.wait()
        chunk(rank - s - 1).add_(tmp)
    for s in range(world - 1):
        a = dist.isend(chunk(rank + 1 - s), right)
        b = dist.irecv(chunk(rank - s), left)
        b.wait()
        a.wait()
    return buf[:n].reshape(x.shape).clone()
''',
    "tree_broadcast_impl": '''
def tree_broadcast(x, src):
    rank, world = dist.get_rank(), dist.get_world_size()
    v = (rank - src) % world
    have = v == 0
    dist_ = 1
    while dist_ < world:
        if have and v < dist_ and v + dist_ < world:
            dist.send(x, (v + dist_ + src) % world)
        elif not have and dist_ <= v < 2 * dist_:
            dist.recv(x, (v - dist_ + src) % world)
            have = True
        dist_ *= 2
    return x
''',
    "shards_impl": '''
import torch.nn.functional as F


def _shard_sizes(numel, world):
    return [numel // world + (1 if r < numel % world else 0) for r in range(world)]


def gather_shards(shard, numel):
    world = dist.get_world_size()
    sizes = _shard_sizes(numel, world)
    longest = max(sizes)
    mine = F.pad(shard, (0, longest - shard.numel())) if shard.is_floating_point() else \\
        torch.cat([shard, shard.new_zeros(longest - shard.numel())])
    out = shard.new_empty(world * longest)
    dist.all_gather_into_tensor(out, mine.contiguous())
    return torch.cat([out[r * longest: r * longest + sizes[r]] for r in range(world)])


def reduce_scatter_shards(full):
    rank, world = dist.get_rank(), dist.get_world_size()
    sizes = _shard_sizes(full.numel(), world)
    longest = max(sizes)
    stacked = full.new_zeros(world, longest)
    for r, piece in enumerate(torch.tensor_split(full, world)):
        stacked[r, :piece.numel()] = piece
    out = full.new_empty(longest)
    dist.reduce_scatter(out, list(stacked.unbind(0)))
    return out[: sizes[rank]].clone()
''',
}
