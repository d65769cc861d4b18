"""Held-out round 9: best fit breaks ties on (size, offset, segment) rather than (size, segment,
offset), so of two equal free blocks in different segments it takes the one at the lower offset even when
it lies in the newer segment. Rule 4: the oldest segment first, then the lowest offset inside it."""
from course.grading.class_run.submissions import edited

EXPECT = {"size_rules": "pass", "allocator_model": "fail", "empty_cache": "pass", "oom_diagnosis": "pass", "cuda_timing": "pass"}
CELLS = {"allocator_impl": edited(
    "15-07", "allocator_impl",
    ('key = (blk.size, seg.sid, blk.offset)',
     'key = (blk.size, blk.offset, seg.sid)'))}
