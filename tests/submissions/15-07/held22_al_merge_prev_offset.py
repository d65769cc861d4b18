"""Held-out round 22 (rule 6, "merges it with a free block directly before and/or after it"; rule 4, "If
several free blocks tie on size, it takes the lowest address ... then the lowest offset inside it"): when the
freed block merges with the free block before it, the merged block keeps the freed block's offset instead
of the previous block's, so a later tie on size inside one segment picks the block at the higher address."""
from course.grading.class_run.submissions import edited

EXPECT = {"allocator_model": "fail"}
BASE = "reference"
CELLS = {"allocator_impl": edited("15-07", "allocator_impl", (
    "            seg.blocks[i - 1].size += seg.blocks.pop(i).size\n",
    "            prev = seg.blocks.pop(i - 1)\n"
    "            blk.size += prev.size          # keep the freed block; the previous one is absorbed\n",
))}
