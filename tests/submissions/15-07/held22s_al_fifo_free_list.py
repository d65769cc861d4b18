"""Round 22, second pass (not counted; rule 4, "If several free blocks tie on size, it takes the lowest
address; ... then the lowest offset inside it"): ties inside one segment go to the block that became free
first (a FIFO free list), not to the lowest offset."""
from course.grading.class_run.submissions import edited

EXPECT = {"allocator_model": "fail"}
BASE = "reference"
CELLS = {"allocator_impl": edited("15-07", "allocator_impl", (
    "    owner: object = None  # the tensor's name while in use, None while free\n",
    "    owner: object = None  # the tensor's name while in use, None while free\n"
    "    freed_at: int = 0     # when the block last became free (its place in the free list)\n",
), (
    "        self.next_sid = 0\n",
    "        self.next_sid = 0\n"
    "        self.clock = 0\n",
), (
    "                    key = (blk.size, seg.sid, blk.offset)\n",
    "                    key = (blk.size, seg.sid, blk.freed_at)\n",
), (
    "            seg.blocks.insert(seg.blocks.index(blk) + 1, Block(blk.offset + size, remainder))\n",
    "            self.clock += 1\n"
    "            seg.blocks.insert(seg.blocks.index(blk) + 1, Block(blk.offset + size, remainder, None, self.clock))\n",
), (
    "        blk.owner = None\n",
    "        blk.owner = None\n"
    "        self.clock += 1\n"
    "        blk.freed_at = self.clock\n",
))}
