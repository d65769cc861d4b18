"""Known-wrong free: a freed block merges with the free block after it, never with the one before it."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"allocator_impl": _patch("allocator_impl", "        if i > 0 and seg.blocks[i - 1].owner is None:                      # merge into the previous block\n            seg.blocks[i - 1].size += seg.blocks.pop(i).size\n", "")}
EXPECT = {"allocator_model": "fail"}
