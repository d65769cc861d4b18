"""Probes for __TOPIC_ID__: run next to the submission, return plain data only."""
import copy
import pickle

from course.judge.probelib import get
from course.judge.probelib import signatures_of  # noqa: F401  (test_signatures.py)


def _plain(v):
    return v if isinstance(v, (int, float, str, bool, type(None))) else repr(type(v))


def stats_run(ns, chunks, resume_after=None):
    """Feed ``chunks`` to a RunningStats; after chunk ``resume_after``, continue in a fresh object
    loaded from a pickled copy of state_dict(). Returns mean/var (raw types) after every chunk."""
    cls = get(ns, "RunningStats")
    s, out = cls(), {"mean": [], "var": [], "state_plain": None}
    out["empty"] = [_plain(s.mean()), _plain(s.var())]
    for i, x in enumerate(chunks):
        s.update(x)
        out["mean"].append(_plain(s.mean()))
        out["var"].append(_plain(s.var()))
        if resume_after == i:
            state = s.state_dict()
            try:
                blob = pickle.dumps(state)
                out["state_plain"] = _only_numbers(state)
            except Exception as exc:  # noqa: BLE001 - reported to the judge as data
                return {"error": f"state_dict() is not picklable: {type(exc).__name__}"}
            s = cls()
            s.load_state_dict(pickle.loads(blob))
    return out


def _only_numbers(v) -> bool:
    if isinstance(v, dict):
        return all(isinstance(k, str) and _only_numbers(x) for k, x in v.items())
    if isinstance(v, (list, tuple)):
        return all(_only_numbers(x) for x in v)
    return isinstance(v, (int, float, bool))


def two_objects(ns, xs, ys):
    """Two RunningStats fed different data, interleaved: their means."""
    cls = get(ns, "RunningStats")
    a, b = cls(), cls()
    for x, y in zip(xs, ys):
        a.update(x)
        b.update(y)
    c = copy.copy(cls())
    return {"a": _plain(a.mean()), "b": _plain(b.mean()), "fresh": _plain(c.mean())}
