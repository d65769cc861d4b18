"""Held-out round 3: tree_broadcast starts the root at m = ceil(N / 2) instead of the first power of two >= N
halved: right for N = 2, 3, 4 and 8, but for N = 5, 6, 7 the root sends to ranks that expect another sender
and some ranks wait forever (the task is for any world size)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "ring_all_reduce": "pass", "tree_broadcast": "fail", "shards": "pass",
          "group_sums": "pass"}
CELLS = {"tree_broadcast_impl": edited(
    "15-08", "tree_broadcast_impl",
    ("    mask >>= 1\n    while mask > 0:",
     "    mask = (world + 1) // 2 if v == 0 else mask >> 1\n    while mask > 0:"))}
