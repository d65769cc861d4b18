"""Gap-hunting round (issue 39, 2026-12-02): on CUDA time_op uses a wall clock and synchronizes only before
stopping it, so the warm-up calls still queued on the GPU are timed as part of the timed calls. Breaks: "or, with
a wall clock, call `torch.cuda.synchronize()` before starting and before stopping it"."""
CELLS = {"timing_impl": '''
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
'''}
EXPECT = {"cuda_timing": "fail"}
