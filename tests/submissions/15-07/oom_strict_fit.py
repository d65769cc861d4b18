"""Known-wrong OOM prediction: a cached block is only reused if it is strictly larger than the rounded
request, so an exact fit is missed."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"oom_impl": _patch("oom_impl", "and b[\"size\"] >= size for b in", "and b[\"size\"] > size for b in")}
EXPECT = {"oom_diagnosis": "fail"}
