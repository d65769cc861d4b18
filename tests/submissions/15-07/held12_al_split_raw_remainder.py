"""Held-out round 12 (rule 5, "split into [the request | the remainder] if the remainder is worth keeping"):
the large-pool split decision measures the remainder from the *requested* bytes, not from the rounded block
(rule 1: the request becomes a block of round_size(n) bytes). A 19 MiB - 100 B request in a fresh 20 MiB
segment is rounded to 19 MiB, leaves exactly 1 MiB and must get the whole 20 MiB block; here it is split."""
from course.grading.class_run.submissions import edited

EXPECT = {"allocator_model": "fail"}
BASE = "reference"
CELLS = {"allocator_impl": edited("15-07", "allocator_impl", (
    'split = remainder >= MIN_BLOCK if pool == "small" else remainder > SMALL_SIZE',
    'split = remainder >= MIN_BLOCK if pool == "small" else blk.size - nbytes > SMALL_SIZE  # what the request leaves',
))}
