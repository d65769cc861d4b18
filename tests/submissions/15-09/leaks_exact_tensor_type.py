"""find_leaks lists only objects whose type is exactly torch.Tensor, so a leaked nn.Parameter (a Tensor
subclass) born in a step is never reported."""
EXPECT = {"leaks": "fail"}
CELLS = {
    "leaks_impl": '''
def _live_tensors():
    gc.collect()
    return [o for o in gc.get_objects() if type(o) is torch.Tensor]


def find_leaks(step, n_iters: int) -> list:
    def alive():
        return {id(t): weakref.ref(t) for t in _live_tensors()}

    seen = alive()
    born = []
    for _ in range(n_iters):
        step()
        now = alive()
        born.append([r for key, r in now.items() if key not in seen or seen[key]() is not r()])
        seen = now
    del now, seen
    gc.collect()
    return [tuple(t.shape) for group in born[1:n_iters - 1] for r in group if (t := r()) is not None]


def memory_growth(snapshots: list) -> dict:
    if len(snapshots) < 2:
        raise ValueError("memory_growth needs at least two snapshots")
    b = [int(s["allocated_bytes.all.current"]) for s in snapshots]
    a = [int(s["allocation.all.current"]) for s in snapshots]
    per_bytes = min(y - x for x, y in zip(b, b[1:]))
    per_allocs = min(y - x for x, y in zip(a, a[1:]))
    return {"bytes_per_iter": per_bytes, "allocs_per_iter": per_allocs, "leaking": per_bytes > 0}
''',
}
