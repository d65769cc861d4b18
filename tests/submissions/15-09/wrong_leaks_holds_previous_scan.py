"""Wrong, from the fourth blind batch of issue #19 (2026-11-27): find_leaks keeps the previous iteration's list
of live tensors (`before = now`) while it calls step again, to diff against it. Its answer is right, because it
drops the lists before the final scan, but it holds strong references to tensors between calls of step, which
the text forbids: a tensor the step replaces cannot die until the next scan. test_holds_no_tensor_between_calls
(the probe's step notes when the 'latest' tensor it replaced is still alive) rejects it."""
EXPECT = {'anomaly': 'pass', 'gradcheck': 'pass', 'monitor': 'pass', 'zoo': 'pass', 'leaks': 'fail'}
BASE = "reference"
CELLS = {
    'leaks_impl': '''
def _live_tensors():
    gc.collect()
    return [o for o in gc.get_objects() if issubclass(type(o), torch.Tensor)]


def find_leaks(step, n_iters: int) -> list:
    before = _live_tensors()
    born_ids = {}
    for it in range(1, n_iters + 1):
        step()
        now = _live_tensors()
        old = {id(t) for t in before}
        fresh = [t for t in now if id(t) not in old]
        if 2 <= it <= n_iters - 1:
            for t in fresh:
                born_ids[id(t)] = weakref.ref(t)
        before = now
    del before, now, fresh
    gc.collect()
    return [tuple(r().shape) for r in born_ids.values() if r() is not None]


def memory_growth(snapshots: list) -> dict:
    if len(snapshots) < 2:
        raise ValueError("need at least two snapshots")
    db = [b["allocated_bytes.all.current"] - a["allocated_bytes.all.current"] for a, b in zip(snapshots, snapshots[1:])]
    da = [b["allocation.all.current"] - a["allocation.all.current"] for a, b in zip(snapshots, snapshots[1:])]
    return {"bytes_per_iter": int(min(db)), "allocs_per_iter": int(min(da)), "leaking": min(db) > 0}
''',
}
