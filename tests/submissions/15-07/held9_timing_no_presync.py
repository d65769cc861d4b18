"""Held-out round 9: on CUDA time_op uses a wall clock but synchronizes only before stopping it, not
before starting it, so the warm-up calls still queued on the GPU are counted in the timed calls. The text:
with a wall clock, call torch.cuda.synchronize() before starting and before stopping it."""
from course.grading.class_run.submissions import edited

EXPECT = {"size_rules": "pass", "allocator_model": "pass", "empty_cache": "pass", "oom_diagnosis": "pass", "cuda_timing": "fail"}
CELLS = {"timing_impl": edited(
    "15-07", "timing_impl",
    ('        torch.cuda.synchronize(device)\n        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)\n        start.record()\n        for _ in range(iters):\n            fn()\n        end.record()\n        end.synchronize()\n        return start.elapsed_time(end) / iters',
     '        t0 = time.perf_counter()\n        for _ in range(iters):\n            fn()\n        torch.cuda.synchronize(device)\n        return (time.perf_counter() - t0) * 1000 / iters'))}
