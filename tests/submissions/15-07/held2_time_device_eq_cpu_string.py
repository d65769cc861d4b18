"""Held-out round 2 (15-07 cuda_timing): the CPU is recognised by `device == "cpu"`, everything else timed with CUDA events.

The text: "device is a string or torch.device". torch.device("cpu") == "cpu" is False, so a CPU device
given as a torch.device takes the CUDA-event path, which raises on a machine without CUDA (and on one with
CUDA times the wrong thing).
"""
EXPECT = {'cuda_timing': 'fail'}

CELLS = {
    'timing_impl': '''
def time_op(fn, warmup: int = 3, iters: int = 10, device="cpu") -> float:
    """Mean milliseconds per call of fn() after warm-up; waits for queued GPU work on CUDA."""
    for _ in range(warmup):
        fn()
    if device == "cpu":
        t0 = time.perf_counter()
        for _ in range(iters):
            fn()
        return (time.perf_counter() - t0) * 1000.0 / iters
    torch.cuda.synchronize(device)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        fn()
    end.record()
    torch.cuda.synchronize(device)
    return start.elapsed_time(end) / iters
''',
}
