"""Known-wrong: freed blocks are never merged with free neighbours."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"allocator_impl": _patch("allocator_impl",
                                  "        i = seg.blocks.index(blk)\n        if i + 1 < len(seg.blocks)",
                                  "        i = seg.blocks.index(blk)\n        if False and i + 1 < len(seg.blocks)")
         .replace("        if i > 0 and seg.blocks[i - 1].owner is None:", "        if False:")}
EXPECT = {"size_rules": "pass", "allocator_model": "fail", "empty_cache": "fail", "cuda_timing": "pass"}
EXPECT_GPU = {"allocator_model": "fail"}  # its GPU-marked checks, on a GPU (make test-gpu)
