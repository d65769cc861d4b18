"""A leak finder that blames tensors born in every iteration (the first, with its warm-up state, and the
last, whose values are still in use, included); memory_growth reads the peak counter and counts an
iteration without growth as leaking."""
EXPECT = {"leaks": "fail"}
CELLS = {
    "leaks_impl": '''
def _live_tensors():
    gc.collect()
    return [o for o in gc.get_objects() if issubclass(type(o), torch.Tensor)]


def find_leaks(step, n_iters):
    def snap():
        return {id(t): weakref.ref(t) for t in _live_tensors()}

    seen = snap()
    born = []
    for _ in range(n_iters):
        step()
        now = snap()
        born += [r for k, r in now.items() if k not in seen or seen[k]() is not r()]
        seen = now
    del seen, now
    gc.collect()
    return [tuple(t.shape) for r in born if (t := r()) is not None]


def memory_growth(snapshots):
    if len(snapshots) < 2:
        raise ValueError("need two snapshots")
    b = [s["allocated_bytes.all.peak"] for s in snapshots]
    a = [s["allocation.all.current"] for s in snapshots]
    d = min(y - x for x, y in zip(b, b[1:]))
    return {"bytes_per_iter": d, "allocs_per_iter": min(y - x for x, y in zip(a, a[1:])), "leaking": d >= 0}
''',
}
