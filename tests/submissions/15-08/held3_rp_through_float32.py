"""Held-out round 3: ring_pass ships every tensor as a float32 buffer (one dtype for gloo) and converts back
with .to(x.dtype): float64 values lose their low bits and int64 values past 2**24 are rounded, although the
task says the result has the values of the left neighbour's x."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "fail", "ring_all_reduce": "pass", "tree_broadcast": "pass", "shards": "pass",
          "group_sums": "pass"}
CELLS = {"ring_pass_impl": edited(
    "15-08", "ring_pass_impl",
    ("outgoing = x.contiguous()", "outgoing = x.contiguous().to(torch.float32)"),
    ("return incoming", "return incoming.to(x.dtype)"))}
