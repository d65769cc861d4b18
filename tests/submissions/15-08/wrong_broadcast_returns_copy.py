"""tree_broadcast fills x in place along the binomial tree, but then hands back x.clone() instead of x
(the habit of the other exercises, which return new tensors). The text says: overwrite x in place and
return x. Found by a blind batch (issue #19); caught by test_broadcast_returns_x_itself."""
EXPECT = {"tree_broadcast": "fail"}
CELLS = {
    "tree_broadcast_impl": '''
def tree_broadcast(x, src):
    rank, world = dist.get_rank(), dist.get_world_size()
    v = (rank - src) % world
    if v == 0:
        m = 1 << (world - 1).bit_length()
    else:
        m = v & -v
        dist.recv(x, (v - m + src) % world)
    step = m >> 1
    while step:
        if v + step < world:
            dist.send(x, (v + step + src) % world)
        step >>= 1
    return x.clone()
''',
}
