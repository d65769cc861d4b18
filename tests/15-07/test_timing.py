"""Task cuda_timing: time_op measures milliseconds per call, after warm-up, synchronising on CUDA."""
import time

import pytest
import torch

from course.checks import expect, fail

pytestmark = pytest.mark.task("cuda_timing")


def _num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def test_sleep_in_milliseconds(student, gen):
    """time_op reports milliseconds per call for a function that sleeps"""
    ms = int(torch.randint(15, 30, (1,), generator=gen))
    r = student.call("time_sleep", sleep_ms=ms, warmup=1, iters=4)
    expect(_num(r["ms"]), f"time_op(fn, warmup=1, iters=4, device='cpu') should return a number, got {r['ms']!r}")
    expect(0.85 * ms <= r["ms"] <= 2.5 * ms + 10,
           f"time_op(fn, warmup=1, iters=4, device='cpu') for an fn that sleeps {ms} ms: expected about {ms} "
           f"(milliseconds per call), got {r['ms']!r}")


def test_warmup_excluded_and_call_count(student):
    """time_op calls fn warmup + iters times and leaves the warm-up calls out of the average"""
    r = student.call("time_slow_start", slow_ms=150, fast_ms=5, n_slow=3, warmup=3, iters=6)
    expect(r["calls"] == 9, f"time_op(fn, warmup=3, iters=6): fn should be called 3 + 6 = 9 times, "
                            f"it was called {r['calls']} times")
    expect(_num(r["ms"]) and 4 <= r["ms"] <= 40,
           f"time_op(fn, warmup=3, iters=6) where the first 3 calls take 150 ms and later ones 5 ms: expected about "
           f"5 ms per call (warm-up calls are not timed), got {r['ms']!r}")


@pytest.mark.gpu
def test_gpu_timing_synchronizes(student, gen):
    """on CUDA, time_op agrees with CUDA-event timing of a large matmul (it must wait for the GPU)"""
    n = 4096
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(n, n, device="cuda", generator=g)
    b = torch.randn(n, n, device="cuda", generator=g)
    for _ in range(3):
        a @ b
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(10):
        a @ b
    end.record()
    torch.cuda.synchronize()
    want = start.elapsed_time(end) / 10
    r = student.call("time_matmul_gpu", n=n, warmup=3, iters=10, seed=seed)
    expect(_num(r["ms"]) and 0.5 * want <= r["ms"] <= 3 * want + 0.5,
           f"time_op(lambda: a @ b, warmup=3, iters=10, device='cuda') for {n}x{n} float32 matrices: CUDA events "
           f"measure {want:.3f} ms per call, got {r['ms']!r} (far less means the GPU work was not waited for)")
