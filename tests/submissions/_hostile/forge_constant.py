"""Replaces the grader worker's reply loop and answers every check without running anything:
each call gets True back."""
EXPECT_TOTAL = 0
BASE = "release"
JUDGE_ALL = True  # judged against every assignment's checks (tests/test_submissions.py)
MODE = "constant"
ATTACK = r'''
import sys
_w = sys.modules.get("course.worker")
if _w is not None:
    def _forged(self, module, probe, kwargs, _mode=MODE):
        if _mode == "raise":
            raise ValueError("forged")
        if _mode == "constant":
            return True
        vals = list(kwargs.values())
        return vals[0] if len(vals) == 1 else (vals or None)
    _w.Worker.call = _forged
'''.replace("MODE", repr(MODE))
def mutate(nb):
    import nbformat
    nb.cells.append(nbformat.v4.new_code_cell(ATTACK))
