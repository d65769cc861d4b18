"""memory_growth reports allocs_per_iter as the allocation increase of the iteration with the smallest byte increase,
not the smallest allocation increase (the text: "the smallest increase of ... (respectively
"allocation.all.current")")."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "fail"}
CELLS = {"leaks_impl": edited("15-09", "leaks_impl", (
    "    per_allocs = min(y - x for x, y in zip(a, a[1:]))\n",
    "    byte_steps = [y - x for x, y in zip(b, b[1:])]\n"
    "    at = byte_steps.index(per_bytes)\n"
    "    per_allocs = a[at + 1] - a[at]\n"))}
