"""memory_growth drops the first difference between snapshots ('the first iteration may grow'), though the first
snapshot is already taken after iteration 1: the smallest increase between *consecutive* snapshots is wanted.
Blind batch, issue #19, third round."""
EXPECT = {"leaks": "fail"}

CELLS = {
    "leaks_impl": '''
def _live_tensors():
    gc.collect()
    # type(o) is looked at directly: o.__class__ on some module objects warns
    return [o for o in gc.get_objects() if issubclass(type(o), torch.Tensor)]


def find_leaks(step, n_iters: int) -> list:
    def snapshot():
        return {id(t): weakref.ref(t) for t in _live_tensors()}

    def alive(records):
        return [r() for r in records.values() if r() is not None]

    before = snapshot()
    born = []
    for it in range(1, n_iters + 1):
        step()
        now = snapshot()
        new = {}
        for key, ref in now.items():
            old = before.get(key)
            if old is None or old() is not ref():
                new[key] = ref
        born.append(new)
        before = now
        del now, new
    gc.collect()
    shapes = []
    for records in born[1:n_iters - 1]:
        for t in alive(records):
            shapes.append(tuple(t.shape))
    return shapes


def memory_growth(snapshots: list) -> dict:
    if len(snapshots) < 2:
        raise ValueError("need at least two snapshots")
    db = [b["allocated_bytes.all.current"] - a["allocated_bytes.all.current"] for a, b in zip(snapshots, snapshots[1:])]
    da = [b["allocation.all.current"] - a["allocation.all.current"] for a, b in zip(snapshots, snapshots[1:])]
    if len(db) > 1:
        db, da = db[1:], da[1:]
    return {"bytes_per_iter": int(min(db)), "allocs_per_iter": int(min(da)), "leaking": bool(min(db) > 0)}
''',
}
