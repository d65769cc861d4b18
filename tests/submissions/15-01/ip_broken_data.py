"""Known-wrong run_broken: adds 1 through y.data, which hides the change from the version counter, so
backward does not raise."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"inplace_impl": _patch("inplace_impl", "    y.add_(1)\n", "    y.data.add_(1)\n")}
EXPECT = {"inplace": "fail"}
