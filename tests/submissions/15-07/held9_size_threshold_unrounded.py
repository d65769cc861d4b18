"""Held-out round 9: segment_size compares the requested nbytes, not the rounded size, with 10 MiB,
so a request of 10 MiB - 100 bytes (rounded: 10 MiB) gets a shared 20 MiB segment instead of its own 10 MiB
one. Rule 3 speaks of the rounded size, and the functions 'must apply the rounding themselves'."""
from course.grading.class_run.submissions import edited

EXPECT = {"size_rules": "fail", "allocator_model": "pass", "empty_cache": "pass", "oom_diagnosis": "pass", "cuda_timing": "pass"}
CELLS = {"size_rules_impl": edited(
    "15-07", "size_rules_impl",
    ('    if size < MIN_LARGE_ALLOC:',
     '    if nbytes < MIN_LARGE_ALLOC:'))}
