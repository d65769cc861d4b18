"""Held-out round 9: round_size rounds with floats, math.ceil(nbytes / 512) * 512, which is exact for
GPU-sized requests but not for ints beyond 2**53, where nbytes / 512 loses the remainder and the block comes
out smaller than the request. The text: nbytes is an int >= 1, rounded *up* to a multiple of 512."""
from course.grading.class_run.submissions import edited

EXPECT = {"size_rules": "fail", "allocator_model": "pass", "empty_cache": "pass", "oom_diagnosis": "pass", "cuda_timing": "pass"}
CELLS = {"size_rules_impl": edited(
    "15-07", "size_rules_impl",
    ('    return MIN_BLOCK * ((nbytes + MIN_BLOCK - 1) // MIN_BLOCK)',
     '    return MIN_BLOCK * math.ceil(nbytes / MIN_BLOCK)'))}
