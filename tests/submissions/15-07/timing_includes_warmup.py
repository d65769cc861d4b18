"""Known-wrong timing: the clock starts before the warm-up calls, so warm-up time is counted (divided by
iters only)."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"timing_impl": _patch("timing_impl", "    t0 = time.perf_counter()\n", "")
         .replace("    device = torch.device(device)\n", "    device = torch.device(device)\n    t0 = time.perf_counter()\n")}
EXPECT = {"cuda_timing": "fail"}
