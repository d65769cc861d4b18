"""Known-wrong empty_cache: a segment is released when its FIRST block is free, even if a later block is
still in use."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"allocator_impl": _patch("allocator_impl", "if not (len(s.blocks) == 1 and s.blocks[0].owner is None)]",
                                     "if s.blocks[0].owner is not None]")}
EXPECT = {"empty_cache": "fail"}
EXPECT_GPU = {"empty_cache": "fail"}  # its GPU-marked checks, on a GPU (make test-gpu)
