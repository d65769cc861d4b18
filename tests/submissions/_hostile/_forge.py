"""Shared by the forge_* specs: replace the grader worker's reply loop (course.judge.worker.Worker.call)
with a forger that runs nothing. Not a spec itself (the name starts with '_')."""

FORGERS = {
    "echo": '''
    vals = list(kwargs.values())
    return vals[0] if len(vals) == 1 else (vals or None)''',
    "constant": '''
    return True''',
    "raise": '''
    raise ValueError("forged")''',
    "protocol": '''
    if "dirs" in kwargs:
        return [{"numeric": 0.5, "analytic": 0.5, "error": ""} for _ in kwargs["dirs"]]
    if "inputs" in kwargs and "v" in kwargs:
        xs = kwargs["inputs"]
        return {"out": xs[0], "grads": list(xs)}
    vals = list(kwargs.values())
    return vals[0] if vals else None''',
    "bomb": '''
    loop = []
    loop.append(loop)
    x = [loop]
    for _ in range(40):
        x = [x, x]
    return x''',
}


def spec(mode: str) -> dict:
    """The spec fields for the forger ``mode``, earning nothing."""
    attack = ("import sys\n_w = sys.modules.get('course.judge.worker')\n"
              "def _forged(self, module, probe, kwargs):" + FORGERS[mode].replace("\n    ", "\n    ") + "\n"
              "if _w is not None:\n    _w.Worker.call = _forged\n")

    def mutate(nb):
        import nbformat
        nb.cells.append(nbformat.v4.new_code_cell(attack))

    # JUDGE_ALL: judged against every assignment by tests/test_submissions.py. The bomb is stopped by the
    # judge's reply decoder, the same for every assignment: tests/test_hostile.py grades it on one.
    return {"EXPECT_TOTAL": 0, "BASE": "release", "JUDGE_ALL": mode != "bomb", "ATTACK": attack, "mutate": mutate}
