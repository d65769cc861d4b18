"""memory_growth calls it leaking only when both the bytes and the number of allocations grew every iteration; the
text says leaking is whether the smallest byte increase is positive (a tensor that grows in place leaks bytes
with a constant number of allocations)."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "fail"}
CELLS = {"leaks_impl": edited("15-09", "leaks_impl", (
    '"leaking": per_bytes > 0}', '"leaking": per_bytes > 0 and per_allocs > 0}'))}
