"""Answers every check with a 1.5 kB reply that expands without end when read: a list that
contains itself, inside 40 levels of shared pairs (2**40 leaves if anything formatted it)."""
EXPECT_TOTAL = 0
BASE = "release"
JUDGE_ALL = True  # judged against every assignment's checks (tests/test_submissions.py)
ATTACK = r'''
import sys
_w = sys.modules.get("course.worker")
if _w is not None:
    def _forged(self, module, probe, kwargs):
        loop = []
        loop.append(loop)
        x = [loop]
        for _ in range(40):
            x = [x, x]
        return x
    _w.Worker.call = _forged
'''
def mutate(nb):
    import nbformat
    nb.cells.append(nbformat.v4.new_code_cell(ATTACK))
