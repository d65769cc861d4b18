"""A leak finder that keeps the live tensors of every iteration in plain lists (so everything it has seen
stays alive) and compares snapshots by id() alone; memory_growth averages the increases."""
EXPECT = {"leaks": "fail"}
CELLS = {
    "leaks_impl": '''
def _live_tensors():
    gc.collect()
    return [o for o in gc.get_objects() if issubclass(type(o), torch.Tensor)]


def find_leaks(step, n_iters):
    before = {id(t) for t in _live_tensors()}
    born = []
    for _ in range(n_iters):
        step()
        now = _live_tensors()
        born.append([t for t in now if id(t) not in before])
        before = {id(t) for t in now}
    gc.collect()
    alive = {id(t) for t in _live_tensors()}
    return [tuple(t.shape) for group in born[1:n_iters - 1] for t in group if id(t) in alive]


def memory_growth(snapshots):
    if len(snapshots) < 2:
        raise ValueError("need two snapshots")
    b = [s["allocated_bytes.all.current"] for s in snapshots]
    a = [s["allocation.all.current"] for s in snapshots]
    per_b = (b[-1] - b[0]) // (len(b) - 1)
    per_a = (a[-1] - a[0]) // (len(a) - 1)
    return {"bytes_per_iter": per_b, "allocs_per_iter": per_a, "leaking": per_b > 0}
''',
}
