"""Known-wrong: first fit (the first free block that is large enough, in segment order) instead of
best fit (the smallest one)."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"allocator_impl": _patch("allocator_impl", "key = (blk.size, seg.sid, blk.offset)",
                                  "key = (seg.sid, blk.offset)")}
EXPECT = {"size_rules": "pass", "allocator_model": "fail", "oom_diagnosis": "pass", "cuda_timing": "pass"}
