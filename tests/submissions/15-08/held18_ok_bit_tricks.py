"""Correct, written unusually; both tasks must pass: tree_broadcast finds its parent by clearing the lowest
set bit of its relative rank (v & -v), posts one irecv and then all its isends at once (the root's lowest
bit is taken as the first power of two >= N); ring_all_reduce runs the ring leftwards (every rank sends to
rank - 1), the mirror image of the schedule in the text, with chunk indices (r + s) % N."""
EXPECT = {"tree_broadcast": "pass", "ring_all_reduce": "pass"}
CELLS = {
    "tree_broadcast_impl": '''
def tree_broadcast(x: torch.Tensor, src: int) -> torch.Tensor:
    rank, world = dist.get_rank(), dist.get_world_size()
    v = (rank - src) % world
    low = v & -v if v else 1 << (world - 1).bit_length()
    if v:
        dist.irecv(x, (v - low + src) % world).wait()
    reqs, m = [], low >> 1
    while m:
        if v + m < world:
            reqs.append(dist.isend(x, (v + m + src) % world))
        m >>= 1
    for req in reqs:
        req.wait()
    return x
''',
    "ring_all_reduce_impl": '''
def ring_all_reduce(x: torch.Tensor) -> torch.Tensor:
    rank, world = dist.get_rank(), dist.get_world_size()
    out = x.new_empty(x.shape)
    out.copy_(x)
    chunks = torch.tensor_split(out.view(-1), world)
    to, frm = (rank - 1) % world, (rank + 1) % world
    for s in range(world - 1):
        give, take = (rank + s) % world, (rank + s + 1) % world
        got = torch.empty_like(chunks[take])
        reqs = [dist.isend(chunks[give], to), dist.irecv(got, frm)]
        for req in reqs:
            req.wait()
        chunks[take].add_(got)
    for s in range(world - 1):
        give, take = (rank - 1 + s) % world, (rank + s) % world
        reqs = [dist.isend(chunks[give], to), dist.irecv(chunks[take], frm)]
        for req in reqs:
            req.wait()
    return out
'''}
