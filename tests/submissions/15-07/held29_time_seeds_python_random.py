"""Held-out round 29 (15-07 cuda_timing): seeds Python's `random` module before the calls.

Violates "fn must be called ... with the caller's ... random-number state. time_op changes none of these
itself": `random.seed(0)` replaces the caller's Python random state, so an fn that draws from `random`
sees other numbers than the caller would give it, and the caller finds the state reset instead of as fn
left it. Wrong for any fn that uses `random` (e.g. random.random() appended to a list).
"""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    """    device = torch.device(device)
    for _ in range(warmup):""",
    """    import random
    random.seed(0)  # reproducible runs: same Python-level randomness every time
    device = torch.device(device)
    for _ in range(warmup):"""))}
EXPECT = {"cuda_timing": "fail"}
