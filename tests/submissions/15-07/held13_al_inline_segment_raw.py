"""Held-out round 13 (issue 39): malloc decides the new segment's size itself from the *requested* bytes:
a request of 10 MiB - 100 bytes (rounded: exactly 10 MiB) gets a shared 20 MiB segment instead of its own
10 MiB one. Breaks rule 3 ("rounded size below 10 MiB ... rounded size of 10 MiB or more") as used by
malloc ("else a new segment (rule 3)")."""
from course.grading.class_run.submissions import edited

CELLS = {"allocator_impl": edited("15-07", "allocator_impl", (
    "            seg = Segment(self.next_sid, pool, segment_size(nbytes))",
    "            seg_bytes = (SMALL_BUFFER if pool == 'small' else LARGE_BUFFER if nbytes < MIN_LARGE_ALLOC\n"
    "                         else ROUND_LARGE * ((size + ROUND_LARGE - 1) // ROUND_LARGE))\n"
    "            seg = Segment(self.next_sid, pool, seg_bytes)"))}
EXPECT = {"allocator_model": "fail"}
