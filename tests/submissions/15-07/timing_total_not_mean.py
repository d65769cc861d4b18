"""Known-wrong timing: returns the total milliseconds of the timed loop, not the mean per call (the
visible 10 ms x 3 example still lands inside its tolerance)."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"timing_impl": _patch("timing_impl", "return (time.perf_counter() - t0) * 1000 / iters", "return (time.perf_counter() - t0) * 1000")
         .replace("return start.elapsed_time(end) / iters", "return start.elapsed_time(end)")}
EXPECT = {"cuda_timing": "fail"}
EXPECT_GPU = {"cuda_timing": "fail"}  # its GPU-marked checks, on a GPU (make test-gpu)
