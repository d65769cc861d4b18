"""Held-out round 2 (15-07 cuda_timing): the CPU path times with time.time() instead of time.perf_counter().

The text: "for the CPU use time.perf_counter()". time.time() is the wall-clock time of day, which NTP may
step or slew while the loop runs, and on some systems has a coarse resolution; the values it gives for a
sleep look right.
"""
EXPECT = {'cuda_timing': 'fail'}

CELLS = {
    'timing_impl': '''
def time_op(fn, warmup: int = 3, iters: int = 10, device="cpu") -> float:
    """Mean milliseconds per call of fn() after warm-up; waits for queued GPU work on CUDA."""
    dev = torch.device(device)
    for _ in range(warmup):
        fn()
    if dev.type == "cuda":
        torch.cuda.synchronize(dev)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        torch.cuda.synchronize(dev)
        return start.elapsed_time(end) / iters
    t0 = time.time()
    for _ in range(iters):
        fn()
    return (time.time() - t0) * 1000.0 / iters
''',
}
