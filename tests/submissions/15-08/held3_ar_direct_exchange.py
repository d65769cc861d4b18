"""Held-out round 3: ring_all_reduce without the ring: each rank sends chunk j straight to its owner j, which
sums them, then each owner sends its finished chunk straight to every other rank. It sends as many elements
as the ring (2(N-1)/N n), but the task says the sum is computed with the ring (each step to the right
neighbour, from the left one)."""
EXPECT = {"ring_pass": "pass", "ring_all_reduce": "fail", "tree_broadcast": "pass", "shards": "pass",
          "group_sums": "pass"}
CELLS = {"ring_all_reduce_impl": '''
def ring_all_reduce(x: torch.Tensor) -> torch.Tensor:
    rank, world = dist.get_rank(), dist.get_world_size()
    flat = x.reshape(-1).clone()
    chunks = list(torch.tensor_split(flat, world))
    others = [q for q in range(world) if q != rank]
    inbox = {q: torch.empty_like(chunks[rank]) for q in others}
    reqs = [dist.irecv(inbox[q], q) for q in others]
    reqs += [dist.isend(chunks[q], q) for q in others]
    for req in reqs:
        req.wait()
    for q in others:
        chunks[rank].add_(inbox[q])
    reqs = [dist.irecv(chunks[q], q) for q in others]
    reqs += [dist.isend(chunks[rank], q) for q in others]
    for req in reqs:
        req.wait()
    return flat.view(x.shape)
'''}
