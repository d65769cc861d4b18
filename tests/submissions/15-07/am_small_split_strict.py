"""Known-wrong split rule: the small pool keeps the remainder only if it is MORE than 512 bytes (the
student copied the large pool's strict comparison)."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"allocator_impl": _patch("allocator_impl", "remainder >= MIN_BLOCK if pool", "remainder > MIN_BLOCK if pool")}
EXPECT = {"allocator_model": "fail"}
