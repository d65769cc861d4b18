"""Known-wrong run_fixed: returns a clone of x.grad, not x.grad itself."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"inplace_impl": _patch("inplace_impl", "    return x.grad", "    return x.grad.clone()")}
EXPECT = {"inplace": "fail"}
