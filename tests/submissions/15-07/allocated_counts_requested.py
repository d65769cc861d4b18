"""Known-wrong: 'allocated' sums the requested bytes instead of the block sizes (no rounding, no
unsplit remainder)."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"allocator_impl": _patch("allocator_impl", "        blk.owner = name\n",
                                  "        blk.owner = name\n        blk.requested = nbytes\n")
         .replace('"allocated": sum(b.size for s in self.segments for b in s.blocks if b.owner is not None)',
                  '"allocated": sum(b.requested for s in self.segments for b in s.blocks if b.owner is not None)')}
EXPECT = {"size_rules": "pass", "allocator_model": "fail", "empty_cache": "fail"}
