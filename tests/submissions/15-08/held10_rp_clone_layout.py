"""Held-out round 10: ring_pass makes x contiguous with x.clone(), which is contiguous for a sliced x but keeps the
strides of a transposed (dense) one, so gloo refuses to send it. The text says: x may be non-contiguous (any
non-contiguous x, a transposed one included)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "fail", "ring_all_reduce": "pass", "tree_broadcast": "pass", "shards": "pass",
          "group_sums": "pass"}
CELLS = {"ring_pass_impl": edited(
    "15-08", "ring_pass_impl",
    ("    outgoing = x.contiguous()\n", "    outgoing = x.clone()  # a fresh copy is contiguous\n"))}
