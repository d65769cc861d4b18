"""Held-out round 29 (15-07 cuda_timing): on CUDA, a wall clock read before the final synchronize.

Violates "or, with a wall clock, call torch.cuda.synchronize() before starting and before stopping it":
the clock is stopped first and the device synchronized afterwards, so queued kernels are not waited for
and the result is the launch time. Wrong for any device="cuda" call whose fn queues work.
"""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    """        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        end.synchronize()
        return start.elapsed_time(end) / iters""",
    """        t0 = time.perf_counter()
        for _ in range(iters):
            fn()
        t1 = time.perf_counter()
        torch.cuda.synchronize(device)
        return (t1 - t0) * 1000 / iters"""))}
EXPECT = {"cuda_timing": "fail"}
