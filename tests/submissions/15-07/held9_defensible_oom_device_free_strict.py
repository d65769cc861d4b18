"""Held-out round 9, written as wrong but judged correct after the count: will_oom's step 2 asks for strictly more
device memory than the new segment (segment_size < device_free). It was meant to call a segment of exactly
device_free bytes an OOM, but the step-3 retry that follows (need > device_free + releasable, releasable >= 0)
answers False for that case, so every answer equals the reference's: an equivalent program, kept as a correct
example (no check can or should fail it)."""
from course.grading.class_run.submissions import edited

EXPECT = {"size_rules": "pass", "allocator_model": "pass", "empty_cache": "pass", "oom_diagnosis": "pass", "cuda_timing": "pass"}
CELLS = {"oom_impl": edited(
    "15-07", "oom_impl",
    ('    if need <= device_free:',
     '    if need < device_free:'))}
