"""Held-out round 29 (15-07 oom_diagnosis): summarize_snapshot's allocated = reserved - inactive bytes.

Violates "allocated (sum of "active_allocated" block sizes)": "active_pending_free" blocks are counted as
allocated. Wrong on any snapshot with a pending-free block, e.g. [large 20 MiB: (4 MiB, active_allocated),
(2 MiB, active_pending_free), (14 MiB, inactive)]: allocated is 4 MiB, this gives 6 MiB.
"""
from course.grading.class_run.submissions import edited

CELLS = {"oom_impl": edited("15-07", "oom_impl", (
    '    allocated = sum(b["size"] for s in segments for b in s["blocks"] if b["state"] == "active_allocated")',
    '    allocated = reserved - sum(b["size"] for s in segments for b in s["blocks"] if b["state"] == "inactive")'))}
EXPECT = {"oom_diagnosis": "fail"}
