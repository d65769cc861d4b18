"""Held-out round 10, correct: tree_broadcast along a binary heap (relative rank v receives from (v - 1) // 2 and
sends to 2v + 1 and 2v + 2) instead of the binomial tree. Every rank but src receives once, the depth of v is
floor(log2(v + 1)) <= ceil(log2 N) hops, and no rank sends more than 2 <= ceil(log2 N) messages (the root of
2 ranks sends one), which is all the exercise's bullets ask."""
EXPECT = {"ring_pass": "pass", "ring_all_reduce": "pass", "tree_broadcast": "pass", "shards": "pass",
          "group_sums": "pass"}
CELLS = {"tree_broadcast_impl": '''
def tree_broadcast(x: torch.Tensor, src: int) -> torch.Tensor:
    world = dist.get_world_size()
    v = (dist.get_rank() - src) % world
    if v:
        dist.recv(x, ((v - 1) // 2 + src) % world)
    for child in (2 * v + 1, 2 * v + 2):
        if child < world:
            dist.send(x, (child + src) % world)
    return x
'''}
