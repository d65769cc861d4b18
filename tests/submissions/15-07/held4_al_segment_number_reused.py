"""Held-out gap round 4 (wrong): breaks rule 4's tie-break "the block in the oldest segment (segments are
numbered in the order they were created)": a new segment takes the smallest number no live segment holds, so
after empty_cache released segment 0 a segment created later is numbered 0 and wins ties against older ones.
E.g. small pool, 1 MiB each: alloc Z, W, A, free Z, W, alloc T, empty_cache, alloc B, free T, alloc C (ties the
hole in A's segment with the one in B's newer segment; it must take A's), free A, empty_cache: reserved must stay
4 MiB, this releases A's segment."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held4_cells.py")))

CELLS = {"allocator_impl": _C["edit"](
    _C["ALLOCATOR"],
    "        seg = Segment(self.created, pool, segment_size(nbytes))\n",
    "        taken = {s.sid for s in self.segments}\n"
    "        seg = Segment(min(n for n in range(len(taken) + 1) if n not in taken), pool, segment_size(nbytes))\n")}
EXPECT = {"empty_cache": "fail"}
