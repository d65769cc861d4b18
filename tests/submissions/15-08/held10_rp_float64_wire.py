"""Held-out round 10: ring_pass sends every tensor as float64 ("one wire format that holds every value") and casts
what arrives back to x's dtype. One message of x.numel() elements still goes to the right neighbour, and small
values survive, but an int64 above 2**53 comes back rounded. The text says: return a new tensor with the shape,
dtype and values of the left neighbour's x."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "fail", "ring_all_reduce": "pass", "tree_broadcast": "pass", "shards": "pass",
          "group_sums": "pass"}
CELLS = {"ring_pass_impl": edited(
    "15-08", "ring_pass_impl",
    ("    outgoing = x.contiguous()\n    incoming = torch.empty_like(outgoing)\n",
     "    outgoing = x.to(torch.float64).contiguous()\n    incoming = torch.empty_like(outgoing)\n"),
    ("    return incoming\n", "    return incoming.to(x.dtype)\n"))}
