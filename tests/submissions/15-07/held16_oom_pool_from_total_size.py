"""Known-wrong will_oom (round 16): tells a segment's pool by its size (2 MiB -> small) instead of reading its
"segment_type". The text says only requests of their own pool (segment_type) reuse an inactive block; a small
segment that is not 2 MiB (an expandable small segment of 4 MiB) is taken for a large one and serves large
requests."""
from course.grading.class_run.submissions import edited

CELLS = {"oom_impl": edited(
    "15-07", "oom_impl",
    ('        if s["segment_type"] == pool and any(',
     '        if ("small" if s["total_size"] == SMALL_BUFFER else "large") == pool and any('))}
EXPECT = {"oom_diagnosis": "fail"}
