"""Held-out round 29 (15-07 cuda_timing): on CUDA, empties the allocator's cache between warm-up and timing.

Violates "warm up first: the first calls pay for ... the allocator's first cudaMallocs" and "just as the
caller would call it ... the caller finds them as fn left them": torch.cuda.empty_cache() after the warm-up
hands the warmed-up blocks back to CUDA, so the timed calls pay cudaMalloc (and the device-wide sync of
cudaFree) again, and the caller finds its allocator cache emptied. Wrong for device="cuda" whenever fn
allocates.
"""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    """    if device.type == "cuda":
        torch.cuda.synchronize(device)""",
    """    if device.type == "cuda":
        torch.cuda.synchronize(device)
        torch.cuda.empty_cache()   # time fn on a clean allocator"""))}
EXPECT = {"cuda_timing": "fail"}
