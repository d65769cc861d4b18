"""Held-out round 22 (rule 3, "large pool, rounded size below 10 MiB: a 20 MiB segment ... rounded size of
10 MiB or more: exactly the rounded size"; Exercise 1, "must apply the rounding themselves"): segment_size
compares the requested nbytes, not the rounded size, with 10 MiB, so a request of 10 MiB - 100 bytes (rounded
to exactly 10 MiB) gets a shared 20 MiB segment instead of a 10 MiB one."""
from course.grading.class_run.submissions import edited

EXPECT = {"size_rules": "fail"}
BASE = "reference"
CELLS = {"size_rules_impl": edited("15-07", "size_rules_impl", (
    "    if size < MIN_LARGE_ALLOC:\n",
    "    if nbytes < MIN_LARGE_ALLOC:\n",
))}
