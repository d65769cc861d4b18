"""Known-wrong: no reuse of cached blocks; every request cudaMallocs a new segment."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"allocator_impl": _patch("allocator_impl", "        best = None\n        for seg in self.segments:",
                                  "        best = None\n        for seg in []:")}
EXPECT = {"size_rules": "pass", "allocator_model": "fail", "oom_diagnosis": "pass", "cuda_timing": "pass"}
EXPECT_GPU = {"allocator_model": "fail"}  # its GPU-marked checks, on a GPU (make test-gpu)
