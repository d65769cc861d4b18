"""Correct time_op written unusually (round 18): timeit.default_timer (which is time.perf_counter) for the
CPU, the calls driven by itertools.repeat, the device told apart by torch.device(...).type, and on CUDA a
torch.cuda.synchronize(device) after the end event instead of end.synchronize()."""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited(
    "15-07", "timing_impl",
    ("""    device = torch.device(device)
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
        return start.elapsed_time(end) / iters
    t0 = time.perf_counter()
    for _ in range(iters):
        fn()
    return (time.perf_counter() - t0) * 1000 / iters
""",
     """    import itertools
    import timeit

    for _ in itertools.repeat(None, warmup):
        fn()
    on_gpu = torch.device(device).type == "cuda"
    if on_gpu:
        torch.cuda.synchronize(device)
        marks = [torch.cuda.Event(enable_timing=True) for _ in "se"]
        marks[0].record()
    else:
        clock = timeit.default_timer
        began = clock()
    for _ in itertools.repeat(None, iters):
        fn()
    if on_gpu:
        marks[1].record()
        torch.cuda.synchronize(device)
        total_ms = marks[0].elapsed_time(marks[1])
    else:
        total_ms = (clock() - began) * 1e3
    return float(total_ms / iters)
"""))}
EXPECT = {"cuda_timing": "pass"}
