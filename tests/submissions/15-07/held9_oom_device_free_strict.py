"""Held-out round 9: will_oom's step 2 needs strictly more device memory than the new segment
(segment_size < device_free), so a request whose segment is exactly device_free bytes is predicted to fail
(when nothing is releasable). Step 2 says cudaMalloc succeeds 'if the device has that much free memory'."""
from course.grading.class_run.submissions import edited

EXPECT = {"size_rules": "pass", "allocator_model": "pass", "empty_cache": "pass", "oom_diagnosis": "fail", "cuda_timing": "pass"}
CELLS = {"oom_impl": edited(
    "15-07", "oom_impl",
    ('    if need <= device_free:',
     '    if need < device_free:'))}
