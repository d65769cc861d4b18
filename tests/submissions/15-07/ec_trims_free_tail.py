"""Known-wrong empty_cache: besides releasing wholly free segments, it gives back the free tail of a
segment whose live blocks are all at the front (segments shrink), which the real allocator cannot do."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"allocator_impl": _patch("allocator_impl", "        self.segments = [s for s in self.segments if not (len(s.blocks) == 1 and s.blocks[0].owner is None)]",
                                     "        self.segments = [s for s in self.segments if not (len(s.blocks) == 1 and s.blocks[0].owner is None)]\n"
                                     "        for s in self.segments:\n"
                                     "            if s.blocks[-1].owner is None:\n"
                                     "                s.size -= s.blocks.pop().size")}
EXPECT = {"empty_cache": "fail"}
EXPECT_GPU = {"empty_cache": "fail"}  # its GPU-marked checks, on a GPU (make test-gpu)
