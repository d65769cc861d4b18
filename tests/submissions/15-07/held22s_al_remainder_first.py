"""Round 22, second pass (not counted; rule 5, "The chosen block ... is split into [the request | the
remainder]"): the split puts the remainder first and the request at the top of the block."""
from course.grading.class_run.submissions import edited

EXPECT = {"allocator_model": "fail"}
BASE = "reference"
CELLS = {"allocator_impl": edited("15-07", "allocator_impl", (
    "            seg.blocks.insert(seg.blocks.index(blk) + 1, Block(blk.offset + size, remainder))\n"
    "            blk.size = size\n",
    "            seg.blocks.insert(seg.blocks.index(blk), Block(blk.offset, remainder))\n"
    "            blk.offset += remainder\n"
    "            blk.size = size\n",
))}
