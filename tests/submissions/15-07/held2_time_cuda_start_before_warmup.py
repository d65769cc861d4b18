"""Held-out round 2 (15-07 cuda_timing): on CUDA the start event is recorded before the warm-up calls.

The CPU path leaves the warm-up out, but on CUDA start.record() comes first, so the warm-up kernels (the
slow first calls the text warns about) sit between the two events and their time is divided among the
timed calls.
"""
EXPECT = {'cuda_timing': 'fail'}

CELLS = {
    'timing_impl': '''
def time_op(fn, warmup: int = 3, iters: int = 10, device="cpu") -> float:
    """Mean milliseconds per call of fn() after warm-up; waits for queued GPU work on CUDA."""
    dev = torch.device(device)
    if dev.type == "cuda":
        torch.cuda.synchronize(dev)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(warmup):
            fn()
        for _ in range(iters):
            fn()
        end.record()
        torch.cuda.synchronize(dev)
        return start.elapsed_time(end) / iters
    for _ in range(warmup):
        fn()
    t0 = time.perf_counter()
    for _ in range(iters):
        fn()
    return (time.perf_counter() - t0) * 1000.0 / iters
''',
}
