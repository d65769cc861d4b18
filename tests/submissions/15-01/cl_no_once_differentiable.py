"""Known-wrong Clamp: backward is not decorated with @once_differentiable, so differentiating twice
silently works instead of raising."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"clamp_impl": _patch("clamp_impl", "    @once_differentiable\n", "")}
EXPECT = {"clamp": "fail"}
