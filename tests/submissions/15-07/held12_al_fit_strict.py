"""Held-out round 12 (rule 4, "the smallest free cached block ... whose size is at least the rounded size"):
malloc only reuses a cached block strictly larger than the rounded request, so an exact fit opens a new
segment."""
from course.grading.class_run.submissions import edited

EXPECT = {"allocator_model": "fail"}
BASE = "reference"
CELLS = {"allocator_impl": edited("15-07", "allocator_impl", (
    "if blk.owner is None and blk.size >= size:",
    "if blk.owner is None and blk.size > size:",
))}
