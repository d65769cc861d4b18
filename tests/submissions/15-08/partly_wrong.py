"""Realistic mistakes: every rank sends first (deadlock), and an all-reduce that gathers at rank 0."""
EXPECT = {"ring_pass": "fail", "ring_all_reduce": "fail",
          "tree_broadcast": "pass", "shards": "pass", "group_sums": "pass"}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another
CELLS = {
    "ring_pass_impl": '''
def ring_pass(x):
    rank, world = dist.get_rank(), dist.get_world_size()
    incoming = torch.empty_like(x.contiguous())
    dist.send(x.contiguous(), (rank + 1) % world)
    dist.recv(incoming, (rank - 1) % world)
    return incoming
''',
    "ring_all_reduce_impl": '''
def ring_all_reduce(x):
    # correct sums, but rank 0 receives everything and sends the total to every rank
    rank, world = dist.get_rank(), dist.get_world_size()
    total = x.clone()
    if rank == 0:
        bufs = [torch.empty_like(x) for _ in range(world - 1)]
        reqs = [dist.irecv(b, src) for src, b in enumerate(bufs, start=1)]
        for req, b in zip(reqs, bufs):
            req.wait()
            total += b
        for req in [dist.isend(total, dst) for dst in range(1, world)]:
            req.wait()
    else:
        dist.isend(x.contiguous(), 0).wait()
        dist.irecv(total, 0).wait()
    return total
''',
}
