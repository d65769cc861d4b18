"""Correct answers written differently: batched p2p, a leftward ring, a doubling-distance tree,
all_gather_into_tensor, and new_subgroups_by_enumeration. Every task must pass."""
EXPECT = {t: "pass" for t in ["ring_pass", "ring_all_reduce", "tree_broadcast", "shards", "group_sums"]}
CELLS = {
    "ring_pass_impl": '''
def ring_pass(x):
    rank, world = dist.get_rank(), dist.get_world_size()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    ops = [dist.P2POp(dist.isend, x.clone(memory_format=torch.contiguous_format), (rank + 1) % world),
           dist.P2POp(dist.irecv, out, (rank + world - 1) % world)]
    for req in dist.batch_isend_irecv(ops):
        req.wait()
    return out
''',
    "ring_all_reduce_impl": '''
def ring_all_reduce(x):
    # the ring runs leftwards and rank r starts with chunk r + 1
    rank, world = dist.get_rank(), dist.get_world_size()
    out = torch.empty(x.numel(), dtype=x.dtype, device=x.device)
    out.copy_(x.reshape(-1))
    bounds = [0]
    for r in range(world):
        bounds.append(bounds[-1] + x.numel() // world + (r < x.numel() % world))
    piece = lambda i: out[bounds[i % world]:bounds[i % world + 1]]
    to, frm = (rank - 1) % world, (rank + 1) % world
    for s in range(world - 1):
        send_i, recv_i = rank + 1 + s, rank + 2 + s
        tmp = torch.zeros_like(piece(recv_i))
        ops = [dist.P2POp(dist.isend, piece(send_i), to), dist.P2POp(dist.irecv, tmp, frm)]
        for req in dist.batch_isend_irecv(ops):
            req.wait()
        piece(recv_i).add_(tmp)
    for s in range(world - 1):
        send_i, recv_i = rank + s, rank + 1 + s
        ops = [dist.P2POp(dist.isend, piece(send_i), to), dist.P2POp(dist.irecv, piece(recv_i), frm)]
        for req in dist.batch_isend_irecv(ops):
            req.wait()
    return out.reshape(x.shape)
''',
    "tree_broadcast_impl": '''
def tree_broadcast(x, src):
    # round k: every relative rank below 2**k that has the data sends to v + 2**k
    rank, world = dist.get_rank(), dist.get_world_size()
    v = (rank - src) % world
    step = 1
    while step < world:
        if v < step and v + step < world:
            dist.send(x, (v + step + src) % world)
        elif step <= v < 2 * step:
            dist.recv(x, (v - step + src) % world)
        step *= 2
    return x
''',
    "shards_impl": '''
def _shard_sizes(numel, world):
    return [numel // world + (1 if r < numel % world else 0) for r in range(world)]


def gather_shards(shard, numel):
    world = dist.get_world_size()
    width = -(-numel // world)
    mine = torch.nn.functional.pad(shard, (0, width - shard.numel()))
    out = torch.empty(world * width, dtype=shard.dtype, device=shard.device)
    dist.all_gather_into_tensor(out, mine)
    keep = torch.cat([torch.arange(r * width, r * width + n) for r, n in enumerate(_shard_sizes(numel, world))])
    return out[keep]


def reduce_scatter_shards(full):
    total = full.clone()
    dist.all_reduce(total)
    return torch.tensor_split(total, dist.get_world_size())[dist.get_rank()].clone()
''',
    "group_sums_impl": '''
def group_sums(x, groups):
    mine, _ = dist.new_subgroups_by_enumeration(groups)
    out = torch.empty_like(x).copy_(x)
    dist.all_reduce(out, op=dist.ReduceOp.SUM, group=mine)
    return out
''',
}
