"""Held-out round 29 (15-07 oom_diagnosis): step 3 also releases segments that hold pending-free blocks.

Violates "release every fully free cached segment (what empty_cache would release)" with Exercise 3's
"releasable (total size of segments in which every block is "inactive")": will_oom counts a segment as
released when no block is "active_allocated", so a segment with an "active_pending_free" block (still used
by a kernel) is released too. Wrong on e.g. [large 20 MiB: (20 MiB, active_pending_free)], device_free
= 0, nbytes = 12 MiB: the answer is True (OOM), this gives False.
"""
from course.grading.class_run.submissions import edited

CELLS = {"oom_impl": edited("15-07", "oom_impl", (
    '    releasable = summarize_snapshot(segments)["releasable"]',
    '    releasable = sum(s["total_size"] for s in segments\n'
    '                     if not any(b["state"] == "active_allocated" for b in s["blocks"]))'))}
EXPECT = {"oom_diagnosis": "fail"}
