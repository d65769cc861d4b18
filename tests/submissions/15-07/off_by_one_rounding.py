"""Known-wrong rounding: (n // 512 + 1) * 512, so exact multiples of 512 get an extra 512 bytes."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"size_rules_impl": _patch("size_rules_impl",
                                   "return MIN_BLOCK * ((nbytes + MIN_BLOCK - 1) // MIN_BLOCK)",
                                   "return MIN_BLOCK * (nbytes // MIN_BLOCK + 1)")}
EXPECT = {"size_rules": "fail", "allocator_model": "fail", "empty_cache": "fail", "cuda_timing": "pass"}
