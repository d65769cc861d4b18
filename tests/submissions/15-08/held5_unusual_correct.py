"""Held-out gap-hunting round 5 (issue 39, 2026-12-02): correct, written unusually. ring_pass posts an isend to
the right, then a blocking recv from the left; ring_all_reduce skips the messages of empty chunks; tree_broadcast
halves the interval of relative ranks [lo, hi) (the holder lo sends to the middle, both halves recurse), which
is a binomial tree of depth ceil(log2 N) by another route; gather_shards places its shard in a zero tensor of
length numel and all-reduces it; reduce_scatter_shards reduces each tensor_split piece to its owner with
dist.reduce; group_sums copies x into empty_like and all-reduces on its own group. Every task must pass.
The held5_* known-wrong examples are single edits of these cells (see _held5.py)."""
EXPECT = {t: "pass" for t in ["ring_pass", "ring_all_reduce", "tree_broadcast", "shards", "group_sums"]}
CELLS = {
    "ring_pass_impl": '''
def ring_pass(x: torch.Tensor) -> torch.Tensor:
    rank, n = dist.get_rank(), dist.get_world_size()
    outgoing = x.contiguous()
    incoming = x.new_empty(x.shape)
    req = dist.isend(outgoing, (rank + 1) % n)
    dist.recv(incoming, (rank - 1) % n)
    req.wait()
    return incoming
''',
    "ring_all_reduce_impl": '''
def ring_all_reduce(x: torch.Tensor) -> torch.Tensor:
    rank, n = dist.get_rank(), dist.get_world_size()
    work = x.reshape(-1).clone()
    parts = torch.tensor_split(work, n)
    right, left = (rank + 1) % n, (rank - 1) % n

    def swap(send_i, into):
        reqs = []
        if parts[send_i].numel():
            reqs.append(dist.isend(parts[send_i], right))
        if into.numel():
            reqs.append(dist.irecv(into, left))
        for req in reqs:
            req.wait()

    for s in range(n - 1):
        target = (rank - s - 1) % n
        got = torch.empty_like(parts[target])
        swap((rank - s) % n, got)
        parts[target].add_(got)
    for s in range(n - 1):
        swap((rank + 1 - s) % n, parts[(rank - s) % n])
    return work.reshape(x.shape)
''',
    "tree_broadcast_impl": '''
def tree_broadcast(x: torch.Tensor, src: int) -> torch.Tensor:
    rank, n = dist.get_rank(), dist.get_world_size()
    me = (rank - src) % n
    lo, hi = 0, n
    while hi - lo > 1:
        mid = lo + (hi - lo + 1) // 2
        if me == lo:
            dist.send(x, (mid + src) % n)
        elif me == mid:
            dist.recv(x, (lo + src) % n)
        if me < mid:
            hi = mid
        else:
            lo = mid
    return x
''',
    "shards_impl": '''
def _shard_sizes(numel: int, world: int) -> list[int]:
    return [numel // world + (1 if r < numel % world else 0) for r in range(world)]


def gather_shards(shard: torch.Tensor, numel: int) -> torch.Tensor:
    world, rank = dist.get_world_size(), dist.get_rank()
    sizes = _shard_sizes(numel, world)
    if numel == 0:
        return shard.new_zeros(0)
    start = sum(sizes[:rank])
    placed = shard.new_zeros(numel)
    placed[start:start + sizes[rank]] = shard
    dist.all_reduce(placed)
    return placed


def reduce_scatter_shards(full: torch.Tensor) -> torch.Tensor:
    world, rank = dist.get_world_size(), dist.get_rank()
    mine = None
    for owner, piece in enumerate(torch.tensor_split(full, world)):
        buf = piece.clone(memory_format=torch.contiguous_format)
        if buf.numel():
            dist.reduce(buf, dst=owner)
        if owner == rank:
            mine = buf
    return mine
''',
    "group_sums_impl": '''
def group_sums(x: torch.Tensor, groups: list[list[int]]) -> torch.Tensor:
    rank = dist.get_rank()
    own = None
    for members in groups:
        handle = dist.new_group(ranks=list(members))
        if rank in members:
            own = handle
    total = torch.empty_like(x, memory_format=torch.contiguous_format).copy_(x)
    dist.all_reduce(total, group=own)
    return total
''',
}
