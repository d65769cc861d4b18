"""Held-out round 25 (Exercise 2: "Zero bytes: nothing happens, but remember the name so that `free(name)`
works"; rule 7, empty_cache only drops free segments): empty_cache rebuilds the name table from the live
blocks of the kept segments, which forgets the names of 0-byte tensors. Trace alloc z 0, empty_cache,
free z: free raises KeyError instead of changing nothing."""
from course.grading.class_run.submissions import edited

EXPECT = {"empty_cache": "fail"}
BASE = "reference"
CELLS = {"allocator_impl": edited("15-07", "allocator_impl", (
    "        self.segments = [s for s in self.segments if not (len(s.blocks) == 1 and s.blocks[0].owner is None)]\n",
    "        self.segments = [s for s in self.segments if not (len(s.blocks) == 1 and s.blocks[0].owner is None)]\n"
    "        self.where = {b.owner: (s, b) for s in self.segments for b in s.blocks if b.owner is not None}\n",
))}
