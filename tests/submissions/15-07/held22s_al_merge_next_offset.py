"""Round 22, second pass (not counted; rule 6, "merges it with a free block directly before and/or after it";
rule 4, ties go to "the lowest offset inside it"): when the freed block merges with the free block after it,
the block after absorbs it and keeps its own (higher) offset, so a later tie on size inside one segment picks
the block at the higher address."""
from course.grading.class_run.submissions import edited

EXPECT = {"allocator_model": "fail"}
BASE = "reference"
CELLS = {"allocator_impl": edited("15-07", "allocator_impl", (
    "            blk.size += seg.blocks.pop(i + 1).size\n",
    "            nxt = seg.blocks[i + 1]\n"
    "            nxt.size += blk.size           # the block after absorbs the freed one\n"
    "            seg.blocks.pop(i)\n"
    "            blk = nxt\n",
))}
