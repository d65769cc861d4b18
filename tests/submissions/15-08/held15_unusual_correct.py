"""Correct answers written unusually, every task must pass: ring_pass posts isend and irecv together into
`x.new_empty`; ring_all_reduce uses blocking send/recv ordered even/odd and slices chunk bounds it works out
itself; tree_broadcast splits the relative ranks in halves (recursive halving: the holder of [lo, hi) sends
to the start of the upper half), still one message per rank and at most ceil(log2 N) hops and sends;
gather_shards fills a tensor of -0.0 (0 for integers) and all-reduces it (x + -0.0 is x bit for bit);
reduce_scatter_shards all-reduces a copy and clones its own slice; group_sums creates
groups from tuples and picks its own by zipping them with `groups`."""
EXPECT = {t: "pass" for t in ["ring_pass", "ring_all_reduce", "tree_broadcast", "shards", "group_sums"]}
CELLS = {
    "ring_pass_impl": '''
def ring_pass(x: torch.Tensor) -> torch.Tensor:
    rank, world = dist.get_rank(), dist.get_world_size()
    got = x.new_empty(x.shape)
    reqs = [dist.irecv(got, (rank + world - 1) % world), dist.isend(x.contiguous(), (rank + 1) % world)]
    for r in reqs:
        r.wait()
    return got
''',
    "ring_all_reduce_impl": '''
def _bounds(n, world):
    base, extra = divmod(n, world)
    starts = [i * base + min(i, extra) for i in range(world + 1)]
    return [(starts[i], starts[i + 1]) for i in range(world)]


def _swap(send_t, recv_t, right, left, rank):
    if rank % 2 == 0:
        dist.send(send_t.contiguous(), right)
        dist.recv(recv_t, left)
    else:
        dist.recv(recv_t, left)
        dist.send(send_t.contiguous(), right)


def ring_all_reduce(x: torch.Tensor) -> torch.Tensor:
    rank, world = dist.get_rank(), dist.get_world_size()
    n = x.numel()
    buf = x.new_empty((n,))
    buf.copy_(x.reshape(-1))
    b = _bounds(n, world)
    right, left = (rank + 1) % world, (rank + world - 1) % world
    for s in range(world - 1):
        o, i = b[(rank - s) % world], b[(rank - s - 1) % world]
        tmp = x.new_empty((i[1] - i[0],))
        _swap(buf[o[0]:o[1]], tmp, right, left, rank)
        buf[i[0]:i[1]] += tmp
    for s in range(world - 1):
        o, i = b[(rank + 1 - s) % world], b[(rank - s) % world]
        tmp = x.new_empty((i[1] - i[0],))
        _swap(buf[o[0]:o[1]], tmp, right, left, rank)
        buf[i[0]:i[1]] = tmp
    return buf.reshape(x.shape)
''',
    "tree_broadcast_impl": '''
def tree_broadcast(x: torch.Tensor, src: int) -> torch.Tensor:
    rank, world = dist.get_rank(), dist.get_world_size()
    me = (rank - src) % world
    lo, hi = 0, world
    while hi - lo > 1:
        mid = lo + (hi - lo + 1) // 2
        if me == lo:
            dist.send(x, (mid + src) % world)
            hi = mid
        elif me == mid:
            dist.recv(x, (lo + src) % world)
            lo = mid
        elif me < mid:
            hi = mid
        else:
            lo = mid
    return x
''',
    "shards_impl": '''
def _shard_sizes(numel: int, world: int) -> list[int]:
    return [numel // world + (1 if r < numel % world else 0) for r in range(world)]


def gather_shards(shard: torch.Tensor, numel: int) -> torch.Tensor:
    rank, world = dist.get_rank(), dist.get_world_size()
    start = sum(_shard_sizes(numel, world)[:rank])
    fill = -0.0 if (shard.is_floating_point() or shard.is_complex()) else 0
    out = torch.full((numel,), fill, dtype=shard.dtype, device=shard.device)
    out[start:start + shard.numel()] = shard
    dist.all_reduce(out)
    return out


def reduce_scatter_shards(full: torch.Tensor) -> torch.Tensor:
    rank, world = dist.get_rank(), dist.get_world_size()
    total = full.clone(memory_format=torch.contiguous_format)
    dist.all_reduce(total)
    start = sum(_shard_sizes(full.numel(), world)[:rank])
    return total[start:start + _shard_sizes(full.numel(), world)[rank]].clone()
''',
    "group_sums_impl": '''
def group_sums(x: torch.Tensor, groups: list[list[int]]) -> torch.Tensor:
    made = [dist.new_group(tuple(g)) for g in groups]
    mine = [g for g, ranks in zip(made, groups) if dist.get_rank() in ranks][0]
    out = x.clone(memory_format=torch.contiguous_format)
    dist.all_reduce(out, group=mine)
    return out
''',
}
