"""Held-out round 2 (15-09 leaks): find_leaks remembers the ids of the tensors it has seen, nothing else.

No strong reference is kept, but the text's trap is kept too: "a dead tensor's id can be reused". A tensor
born in iteration k at the address of one that died during that call (a value the step replaces) has an
id already seen, so it is not counted as born and its leak is never reported.
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
    seen = {id(t) for t in _live_tensors()}
    born = {}
    for it in range(1, n_iters + 1):
        step()
        for t in _live_tensors():
            if id(t) not in seen:
                seen.add(id(t))
                born[id(t)] = (weakref.ref(t), it)
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
    return {"bytes_per_iter": db, "allocs_per_iter": da, "leaking": db > 0}
''',
}
