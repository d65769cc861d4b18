"""Ring all-reduce with torch.chunk (fewer chunks than ranks for short tensors), and a ring pass that
forgets that gloo sends only contiguous memory."""
EXPECT = {"ring_pass": "fail", "ring_all_reduce": "fail"}
CELLS = {
    "ring_pass_impl": '''
def ring_pass(x):
    rank, world = dist.get_rank(), dist.get_world_size()
    incoming = torch.empty(x.shape, dtype=x.dtype)
    if rank % 2 == 0:
        dist.send(x, (rank + 1) % world)
        dist.recv(incoming, (rank - 1) % world)
    else:
        dist.recv(incoming, (rank - 1) % world)
        dist.send(x, (rank + 1) % world)
    return incoming
''',
    "ring_all_reduce_impl": '''
def ring_all_reduce(x):
    rank, world = dist.get_rank(), dist.get_world_size()
    flat = x.reshape(-1).clone()
    chunks = list(torch.chunk(flat, world))
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
