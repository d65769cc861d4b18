"""Held-out gap round 4 (wrong): breaks rule 6 "merges it with a free block directly before and/or after it in
the same segment": when a freed block ends its segment and the next segment of the same pool starts with a free
block, both are joined into one free block (of the earlier segment) that later requests may use whole,
although no such contiguous memory exists. E.g. alloc a 9 MiB, b 9 MiB (both in segment 0), c 9 MiB (segment
1), free c, free b, alloc d 25 MiB: d is served from a 31 MiB "hole" instead of a new 26 MiB segment."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held4_cells.py")))

_src = _C["edit"](_C["ALLOCATOR"], "        if at > 0 and seg.blocks[at - 1].owner is None:\n",
                  "        following = [s for s in self.segments if s.sid > seg.sid and s.pool == seg.pool]\n"
                  "        if at == len(seg.blocks) - 1 and following:\n"
                  "            nxt = min(following, key=lambda s: s.sid)\n"
                  "            if nxt.blocks[0].owner is None:\n"
                  "                blk.size += nxt.blocks[0].size\n"
                  "                nxt.blocks.pop(0)\n"
                  "                if nxt.blocks:\n"
                  "                    nxt.blocks[0].offset = 0\n"
                  "        if at > 0 and seg.blocks[at - 1].owner is None:\n")
# a segment whose blocks were all taken over by its neighbour holds no block: empty_cache releases it with
# the rule's own test of "one free block" rewritten to "no block in use"
_src = _C["edit"](_src, "if not (len(s.blocks) == 1 and s.blocks[0].owner is None)]",
                  "if any(b.owner is not None for b in s.blocks) or len(s.blocks) > 1]")
CELLS = {"allocator_impl": _src}
EXPECT = {"allocator_model": "fail"}
