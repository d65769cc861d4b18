"""Held-out round 13 (issue 39): releasable counts segments whose allocated_size is 0, so a segment whose
only block is 'active_pending_free' (nothing allocated, but not every block inactive) is counted as
releasable. Breaks: "releasable (total size of segments in which every block is "inactive")"."""
from course.grading.class_run.submissions import edited

CELLS = {"oom_impl": edited("15-07", "oom_impl", (
    '    releasable = sum(s["total_size"] for s in segments if all(b["state"] == "inactive" for b in s["blocks"]))',
    '    releasable = sum(s["total_size"] for s in segments if s["allocated_size"] == 0)'))}
EXPECT = {"oom_diagnosis": "fail"}
