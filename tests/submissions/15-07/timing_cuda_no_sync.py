"""Known-wrong timing: on CUDA it uses a wall clock without any synchronize, so it measures kernel
launches, not the queued work. The CPU path is right."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"timing_impl": _patch("timing_impl", "    if device.type == \"cuda\":", "    if False:")}
EXPECT = {"cuda_timing": "fail"}
EXPECT_GPU = {"cuda_timing": "fail"}  # its GPU-marked checks, on a GPU (make test-gpu)
