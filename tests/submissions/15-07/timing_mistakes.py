"""Known-wrong timing: seconds instead of milliseconds on the CPU path (the CUDA path is right); and a summary that counts pending-free blocks
as free (cached_free / releasable wrong)."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"timing_impl": _patch("timing_impl", "return (time.perf_counter() - t0) * 1000 / iters",
                               "return (time.perf_counter() - t0) / iters"),
         "oom_impl": _patch("oom_impl", 'if b["state"] == "inactive"]', 'if b["state"] != "active_allocated"]')
         .replace('all(b["state"] == "inactive" for b in s["blocks"])', 'all(b["state"] != "active_allocated" for b in s["blocks"])')}
EXPECT = {"size_rules": "pass", "allocator_model": "pass", "oom_diagnosis": "fail", "cuda_timing": "fail"}
