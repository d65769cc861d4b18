"""Held-out round 12 (rule 4, "If several free blocks tie on size, it takes the lowest address ... the block in
the oldest segment"): ties go to the segment with the least free memory ("pack the fullest segment so the
emptier ones can be released"), and only then to the oldest."""
from course.grading.class_run.submissions import edited

EXPECT = {"allocator_model": "fail"}
BASE = "reference"
CELLS = {"allocator_impl": edited("15-07", "allocator_impl", (
    "key = (blk.size, seg.sid, blk.offset)",
    "key = (blk.size, sum(b.size for b in seg.blocks if b.owner is None), seg.sid, blk.offset)",
))}
