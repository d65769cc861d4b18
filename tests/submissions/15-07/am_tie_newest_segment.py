"""Known-wrong best fit: ties on size go to the newest segment (<= in the comparison keeps the last
candidate), not to the oldest segment / lowest offset as rule 4 says."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"allocator_impl": _patch("allocator_impl", "if best is None or key < best[0]:",
                                     "if best is None or key[0] <= best[0][0]:")}
EXPECT = {"allocator_model": "fail"}
