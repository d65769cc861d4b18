"""Held-out round 9: after step 3 releases the fully free segments, the retry succeeds only when
device_free + releasable is strictly more than the new segment; a retry that needs exactly that much is
predicted to fail. Step 3 retries cudaMalloc with the released memory added, and exactly enough is enough."""
from course.grading.class_run.submissions import edited

EXPECT = {"size_rules": "pass", "allocator_model": "pass", "empty_cache": "pass", "oom_diagnosis": "fail", "cuda_timing": "pass"}
CELLS = {"oom_impl": edited(
    "15-07", "oom_impl",
    ('    return need > device_free + releasable',
     '    return need >= device_free + releasable'))}
