"""Breaks: "After each call it runs `gc.collect()` and notes which tensors ... are alive".

The scan reads gc.get_objects() without collecting first ("get_objects is enough"). Tensors that are
only kept by garbage reference cycles (a frame caught in an exception's traceback, a dict that refers
to itself) are still listed until the collector happens to run, so they are reported as leaks.
"""
EXPECT = {"leaks": "fail"}

CELLS = {
    "leaks_impl": '''
def _live_tensors():
    return [o for o in gc.get_objects() if issubclass(type(o), torch.Tensor)]


def _note_new(known, born, iteration):
    for t in _live_tensors():
        ref = known.get(id(t))
        if ref is not None and ref() is t:
            continue
        ref = weakref.ref(t)
        known[id(t)] = ref
        born[id(t)] = (ref, iteration, tuple(t.shape))


def find_leaks(step, n_iters: int) -> list:
    known, born = {}, {}
    _note_new(known, born, 0)
    for iteration in range(1, n_iters + 1):
        step()
        _note_new(known, born, iteration)
    return [shape for ref, iteration, shape in born.values()
            if 2 <= iteration <= n_iters - 1 and ref() is not None]


def memory_growth(snapshots: list) -> dict:
    if len(snapshots) < 2:
        raise ValueError(f"memory_growth needs at least two snapshots, got {len(snapshots)}")
    nbytes = [int(s["allocated_bytes.all.current"]) for s in snapshots]
    count = [int(s["allocation.all.current"]) for s in snapshots]
    db = min(b - a for a, b in zip(nbytes, nbytes[1:]))
    da = min(b - a for a, b in zip(count, count[1:]))
    return {"bytes_per_iter": db, "allocs_per_iter": da, "leaking": db > 0}
''',
}
