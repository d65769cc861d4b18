"""Three realistic mistakes in three different tasks; the other tasks are the reference solution.

- empty_cache: drops every segment that has *any* free block (also segments with live tensors in them).
- oom_diagnosis: fragmentation computed as largest_free_block / cached_free (the inverse measure).
- cuda_timing: the warm-up calls are timed too (the timer starts before the warm-up loop).
"""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {
    "allocator_impl": _patch("allocator_impl",
                             "if not (len(s.blocks) == 1 and s.blocks[0].owner is None)",
                             "if not any(b.owner is None for b in s.blocks)"),
    "oom_impl": _patch("oom_impl", "1.0 - largest / cached_free", "largest / cached_free"),
    "timing_impl": _patch("timing_impl",
                          "    for _ in range(warmup):\n        fn()\n    if device.type",
                          "    t0 = time.perf_counter()\n    for _ in range(warmup):\n        fn()\n    if device.type")
                  .replace("    t0 = time.perf_counter()\n    for _ in range(iters):", "    for _ in range(iters):"),
}
EXPECT = {"size_rules": "pass", "allocator_model": "pass", "empty_cache": "fail", "oom_diagnosis": "fail",
          "cuda_timing": "fail"}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another
