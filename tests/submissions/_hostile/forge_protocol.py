"""Replaces the grader worker's reply loop with answers shaped like the public probe library's:
gradient checks get a numeric and an analytic value that agree, VJP checks get the inputs back as
output and gradients, everything else gets its first input. It knows nothing about the tasks."""
EXPECT_TOTAL = 0
BASE = "release"
JUDGE_ALL = True  # judged against every assignment's checks (tests/test_submissions.py)
ATTACK = r'''
import sys
_w = sys.modules.get("course.worker")
if _w is not None:
    def _forged(self, module, probe, kwargs):
        if "dirs" in kwargs:
            return [{"numeric": 0.5, "analytic": 0.5, "error": ""} for _ in kwargs["dirs"]]
        if "inputs" in kwargs and "v" in kwargs:
            xs = kwargs["inputs"]
            return {"out": xs[0], "grads": list(xs)}
        vals = list(kwargs.values())
        return vals[0] if vals else None
    _w.Worker.call = _forged
'''
def mutate(nb):
    import nbformat
    nb.cells.append(nbformat.v4.new_code_cell(ATTACK))
