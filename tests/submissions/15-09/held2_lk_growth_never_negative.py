"""Held-out round 2 (15-09 leaks): memory_growth reports a smallest increase of at least 0.

"The smallest increase ... between consecutive snapshots" is negative when memory fell between two of
them (a cache released, a batch of a smaller size); here both counts are clamped with max(0, ...), so a
shrinking run reports bytes_per_iter 0 and allocs_per_iter 0 instead of the (negative) smallest change.
"""
EXPECT = {'leaks': 'fail'}

CELLS = {
    'leaks_impl': '''
def _live_tensors():
    gc.collect()
    # issubclass(type(o), ...) rather than isinstance: isinstance reads o.__class__, which a few deprecated
    # module objects turn into a warning.
    return [o for o in gc.get_objects() if issubclass(type(o), torch.Tensor)]


def find_leaks(step, n_iters: int) -> list:
    seen = {id(t): weakref.ref(t) for t in _live_tensors()}
    born = {}
    for it in range(1, n_iters + 1):
        step()
        for t in _live_tensors():
            r = seen.get(id(t))
            if r is None or r() is not t:
                seen[id(t)] = weakref.ref(t)
                born[id(t)] = (seen[id(t)], it)
        t = None
    out = []
    for ref, it in born.values():
        t = ref()
        if t is not None and 2 <= it <= n_iters - 1:
            out.append(tuple(t.shape))
    return out


def memory_growth(snapshots: list) -> dict:
    if len(snapshots) < 2:
        raise ValueError(f"memory_growth needs at least two snapshots, got {len(snapshots)}")
    b = [int(s["allocated_bytes.all.current"]) for s in snapshots]
    a = [int(s["allocation.all.current"]) for s in snapshots]
    db = min(y - x for x, y in zip(b, b[1:]))
    da = min(y - x for x, y in zip(a, a[1:]))
    return {"bytes_per_iter": max(0, db), "allocs_per_iter": max(0, da), "leaking": db > 0}
''',
}
