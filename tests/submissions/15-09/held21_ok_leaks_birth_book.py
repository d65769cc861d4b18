"""A correct find_leaks written differently: one book {id: (weak reference, iteration of birth)} kept across the
calls (an entry whose weak reference no longer points at the listed object is a new tensor under a reused id), and
memory_growth with itertools.pairwise and a dict comprehension over the two counters."""
EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"leaks_impl": '''def _live_tensors():
    gc.collect()
    # issubclass(type(o), ...) rather than isinstance: isinstance reads o.__class__, which a few deprecated
    # module objects turn into a warning.
    return [o for o in gc.get_objects() if issubclass(type(o), torch.Tensor)]


def find_leaks(step, n_iters: int) -> list:
    import itertools

    book = {}

    def enter(iteration):
        for t in _live_tensors():
            entry = book.get(id(t))
            if entry is None or entry[0]() is not t:
                book[id(t)] = (weakref.ref(t), iteration)
        t = None

    enter(0)
    for it in itertools.count(1):
        if it > n_iters:
            break
        step()
        enter(it)
    gc.collect()
    shapes = []
    for ref, born in list(book.values()):
        t = ref()
        if t is not None and 2 <= born <= n_iters - 1:
            shapes.append(tuple(t.shape))
        t = None
    return shapes


def memory_growth(snapshots: list) -> dict:
    import itertools

    if len(snapshots) < 2:
        raise ValueError(f"need two snapshots or more, got {len(snapshots)}")
    keys = {"bytes_per_iter": "allocated_bytes.all.current", "allocs_per_iter": "allocation.all.current"}
    out = {name: min(int(b[key]) - int(a[key]) for a, b in itertools.pairwise(snapshots))
           for name, key in keys.items()}
    out["leaking"] = bool(out["bytes_per_iter"] > 0)
    return out
'''}
