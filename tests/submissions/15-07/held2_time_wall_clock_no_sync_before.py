"""Held-out round 2 (15-07 cuda_timing): on CUDA a perf_counter wall clock, synchronized only before stopping.

The text allows a wall clock on CUDA if torch.cuda.synchronize() is called "before starting and before
stopping it". Without the first synchronize, the warm-up calls' queued kernels are still running when the
clock starts and their time is counted in the timed calls' mean.
"""
EXPECT = {'cuda_timing': 'fail'}

CELLS = {
    'timing_impl': '''
def time_op(fn, warmup: int = 3, iters: int = 10, device="cpu") -> float:
    """Mean milliseconds per call of fn() after warm-up; waits for queued GPU work on CUDA."""
    cuda = torch.device(device).type == "cuda"
    for _ in range(warmup):
        fn()
    t0 = time.perf_counter()
    for _ in range(iters):
        fn()
    if cuda:
        torch.cuda.synchronize(device)
    return (time.perf_counter() - t0) * 1000.0 / iters
''',
}
