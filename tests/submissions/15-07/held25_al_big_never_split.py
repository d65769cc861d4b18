"""Held-out round 25 (rule 5: "The chosen block (cached or a fresh segment) is split ... in the large pool
only if [the remainder] is more than 1 MiB"): requests of 10 MiB or more are never split, as if they always
got a segment of their own. Wrong when such a request reuses a bigger cached block (alloc A 30 MiB, free A,
alloc B 12 MiB: B should take 12 MiB of the block, not all 30) or gets a fresh segment with more than
1 MiB left (10.5 MiB -> 12 MiB segment, 1.5 MiB remainder split off)."""
from course.grading.class_run.submissions import edited

EXPECT = {"allocator_model": "fail"}
BASE = "reference"
CELLS = {"allocator_impl": edited("15-07", "allocator_impl", (
    "        split = remainder >= MIN_BLOCK if pool == \"small\" else remainder > SMALL_SIZE\n",
    "        split = remainder >= MIN_BLOCK if pool == \"small\" else (remainder > SMALL_SIZE and size < MIN_LARGE_ALLOC)\n",
))}
