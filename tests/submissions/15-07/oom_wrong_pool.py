"""Known-wrong OOM prediction: any free cached block of sufficient size is considered usable, whatever its
pool, and fully free segments are never released before giving up."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"oom_impl": _patch("oom_impl", 'if s["segment_type"] == pool and any(', 'if any(')
         .replace("return need > device_free + releasable", "return True")}
EXPECT = {"size_rules": "pass", "allocator_model": "pass", "oom_diagnosis": "fail", "cuda_timing": "pass"}
