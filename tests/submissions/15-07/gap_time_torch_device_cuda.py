"""Gap-hunting round (issue 39, 2026-12-02): time_op compares `device == "cuda"`, so `torch.device("cuda")` or
"cuda:0" is timed with a bare wall clock that returns before the queued GPU work is done. Breaks: "`device` is a
string or `torch.device`; for CUDA use events and synchronize as above"."""
CELLS = {"timing_impl": '''
def time_op(fn, warmup: int = 3, iters: int = 10, device="cpu") -> float:
    """Mean milliseconds per call of fn() after warm-up; waits for queued GPU work on CUDA."""
    for _ in range(warmup):
        fn()
    if device == "cuda":
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize()
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        torch.cuda.synchronize()
        return float(start.elapsed_time(end) / iters)
    t0 = time.perf_counter()
    for _ in range(iters):
        fn()
    return (time.perf_counter() - t0) * 1000.0 / iters
'''}
EXPECT = {"cuda_timing": "fail"}
