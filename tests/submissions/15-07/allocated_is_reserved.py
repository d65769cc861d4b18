"""Known-wrong: stats() reports the segment total as 'allocated' (confuses memory_allocated with
memory_reserved)."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"allocator_impl": _patch("allocator_impl",
                                  '"allocated": sum(b.size for s in self.segments for b in s.blocks if b.owner is not None)',
                                  '"allocated": sum(s.size for s in self.segments)')}
EXPECT = {"size_rules": "pass", "allocator_model": "fail", "empty_cache": "fail", "oom_diagnosis": "pass",
          "cuda_timing": "pass"}
