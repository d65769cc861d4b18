"""Known-wrong best fit: any free cached block that is big enough is reused, whatever its pool (a 1.5 MiB
request can land in a free 2 MiB small-pool segment)."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"allocator_impl": _patch("allocator_impl", "            if seg.pool != pool:\n                continue\n", "")}
EXPECT = {"allocator_model": "fail"}
