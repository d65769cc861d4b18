"""A broadcast where the root sends to every rank itself, and a ring all-reduce that sums in float32
(integers come back as floats) and overwrites x."""
EXPECT = {"tree_broadcast": "fail", "ring_all_reduce": "fail"}
CELLS = {
    "tree_broadcast_impl": '''
def tree_broadcast(x, src):
    rank, world = dist.get_rank(), dist.get_world_size()
    if rank == src:
        for dst in range(world):
            if dst != src:
                dist.send(x, dst)
    else:
        dist.recv(x, src)
    return x
''',
    "ring_all_reduce_impl": '''
def ring_all_reduce(x):
    rank, world = dist.get_rank(), dist.get_world_size()
    flat = x.view(-1)
    if not flat.is_floating_point():
        flat = flat.float()
    chunks = list(torch.tensor_split(flat, world))
    right, left = (rank + 1) % world, (rank - 1) % world
    for s in range(world - 1):
        a, b = (rank - s) % world, (rank - s - 1) % world
        buf = torch.empty_like(chunks[b])
        reqs = [dist.isend(chunks[a], right), dist.irecv(buf, left)]
        for r in reqs:
            r.wait()
        chunks[b] += buf
    for s in range(world - 1):
        a, b = (rank + 1 - s) % world, (rank - s) % world
        reqs = [dist.isend(chunks[a], right), dist.irecv(chunks[b], left)]
        for r in reqs:
            r.wait()
    return flat.view(x.shape)
''',
}
