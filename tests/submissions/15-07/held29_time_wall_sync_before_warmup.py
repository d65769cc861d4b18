"""Held-out round 29 (15-07 cuda_timing): on CUDA, the wall clock's first synchronize comes before the
warm-up, not after it.

Violates "call torch.cuda.synchronize() before starting [the wall clock]" and "warm up first": the warm-up
calls are queued after the only early synchronize, so the timed interval also waits for the warm-up's GPU
work. Wrong for any device="cuda" call with warmup >= 1 whose fn queues work.
"""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    """    device = torch.device(device)
    for _ in range(warmup):
        fn()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        end.synchronize()
        return start.elapsed_time(end) / iters""",
    """    device = torch.device(device)
    if device.type == "cuda":
        torch.cuda.synchronize(device)   # start from an idle device
    for _ in range(warmup):
        fn()
    if device.type == "cuda":
        t0 = time.perf_counter()
        for _ in range(iters):
            fn()
        torch.cuda.synchronize(device)
        return (time.perf_counter() - t0) * 1000 / iters"""))}
EXPECT = {"cuda_timing": "fail"}
