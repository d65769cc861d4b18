"""Known-wrong time_op (round 18): warms a function up only the first time it is timed (a module-level set
remembers it), on the idea that the one-off costs are paid once. The text: time_op "calls fn() warmup
times untimed, then iters times timed" and "fn must be called exactly warmup + iters times" - every call;
timing the same fn twice calls it only iters times the second time."""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited(
    "15-07", "timing_impl",
    ("def time_op(fn,",
     "_WARMED_UP = set()  # functions already warmed up: cuBLAS heuristics and first cudaMallocs are paid once\n\n\n"
     "def time_op(fn,"),
    ("    for _ in range(warmup):\n        fn()\n",
     "    if fn not in _WARMED_UP:\n        for _ in range(warmup):\n            fn()\n        _WARMED_UP.add(fn)\n"))}
EXPECT = {"cuda_timing": "fail"}
