"""Held-out round 10: ring_pass ends with dist.barrier() "to keep the ranks in step". The values are right and
only one message is sent, but a barrier is a collective over the whole group. The text says: each rank sends
exactly one message, of x.numel() elements, and calls no collective."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "fail", "ring_all_reduce": "pass", "tree_broadcast": "pass", "shards": "pass",
          "group_sums": "pass"}
CELLS = {"ring_pass_impl": edited(
    "15-08", "ring_pass_impl",
    ("    return incoming\n", "    dist.barrier()  # nobody runs ahead\n    return incoming\n"))}
