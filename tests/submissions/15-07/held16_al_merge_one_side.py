"""Known-wrong free (round 16): merges the freed block with its next free neighbour *or* its previous one,
never both (an elif). Rule 6 says it merges with a free block directly before and/or after it, so freeing the
block between two free ones leaves two free blocks where there should be one."""
from course.grading.class_run.submissions import edited

CELLS = {"allocator_impl": edited(
    "15-07", "allocator_impl",
    ("        if i > 0 and seg.blocks[i - 1].owner is None:",
     "        elif i > 0 and seg.blocks[i - 1].owner is None:"))}
EXPECT = {"allocator_model": "fail"}
