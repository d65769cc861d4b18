"""Held-out round 9: will_oom models step 3 by deleting the fully free segments from the caller's list
(segments[:] = ...) before the retry, so asking whether a request would fail changes the snapshot the caller
passed in. The text asks will_oom whether the allocator *would* raise: a prediction that reads the snapshot."""
from course.grading.class_run.submissions import edited

EXPECT = {"size_rules": "pass", "allocator_model": "pass", "empty_cache": "pass", "oom_diagnosis": "fail", "cuda_timing": "pass"}
CELLS = {"oom_impl": edited(
    "15-07", "oom_impl",
    ('    releasable = summarize_snapshot(segments)["releasable"]\n    return need > device_free + releasable',
     '    releasable = summarize_snapshot(segments)["releasable"]\n    segments[:] = [s for s in segments if any(b["state"] != "inactive" for b in s["blocks"])]\n    return need > device_free + releasable'))}
