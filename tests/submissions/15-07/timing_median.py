"""Known-wrong timing: times each call on the CPU and returns the median, not the mean per call (equal for
an fn that always sleeps the same time)."""
CELLS = {"timing_impl": '''
def time_op(fn, warmup: int = 3, iters: int = 10, device="cpu") -> float:
    device = torch.device(device)
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
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    mid = len(times) // 2
    return float(times[mid]) if len(times) % 2 else (times[mid - 1] + times[mid]) / 2
'''}
EXPECT = {"cuda_timing": "fail"}
