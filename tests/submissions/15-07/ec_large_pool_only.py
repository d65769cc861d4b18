"""Known-wrong empty_cache: releases wholly free segments of the large pool only; free 2 MiB small-pool
segments stay cached."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"allocator_impl": _patch("allocator_impl", "if not (len(s.blocks) == 1 and s.blocks[0].owner is None)]",
                                     "if not (s.pool == \"large\" and len(s.blocks) == 1 and s.blocks[0].owner is None)]")}
EXPECT = {"empty_cache": "fail"}
EXPECT_GPU = {"empty_cache": "fail"}  # its GPU-marked checks, on a GPU (make test-gpu)
