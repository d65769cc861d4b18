"""A broadcast along a chain from the root (N-1 hops), written with the relative-rank trick."""
EXPECT = {"tree_broadcast": "fail"}
CELLS = {
    "tree_broadcast_impl": '''
def tree_broadcast(x, src):
    rank, world = dist.get_rank(), dist.get_world_size()
    v = (rank - src) % world
    if v > 0:
        dist.recv(x, (rank - 1) % world)
    if v < world - 1:
        dist.send(x, (rank + 1) % world)
    return x
''',
}
