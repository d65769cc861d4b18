"""Shortcuts the tasks forbid: the ring all-reduce and the tree broadcast call gloo's collectives."""
EXPECT = {"ring_all_reduce": "fail", "tree_broadcast": "fail"}
CELLS = {
    "ring_all_reduce_impl": '''
def ring_all_reduce(x):
    out = x.clone()
    dist.all_reduce(out)
    return out
''',
    "tree_broadcast_impl": '''
def tree_broadcast(x, src):
    dist.broadcast(x, src)
    return x
''',
}
