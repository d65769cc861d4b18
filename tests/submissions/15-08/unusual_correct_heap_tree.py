"""tree_broadcast along a binary heap over the relative ranks (parent (v - 1) // 2, children 2v + 1 and
2v + 2) rather than a binomial tree, with irecv/isend: the depth is floor(log2 N), no rank sends more
than twice (once for N = 2), every other rank receives once, and x is filled in place and returned.
The text bounds hops and messages; it does not require the binomial shape. Every task must pass."""
EXPECT = {t: "pass" for t in ["ring_pass", "ring_all_reduce", "tree_broadcast", "shards", "group_sums"]}
CELLS = {
    "tree_broadcast_impl": '''
def tree_broadcast(x, src):
    rank, world = dist.get_rank(), dist.get_world_size()
    v = (rank - src) % world
    if v:
        dist.irecv(x, ((v - 1) // 2 + src) % world).wait()
    kids = [c for c in (2 * v + 1, 2 * v + 2) if c < world]
    for req in [dist.isend(x, (c + src) % world) for c in kids]:
        req.wait()
    return x
''',
}
