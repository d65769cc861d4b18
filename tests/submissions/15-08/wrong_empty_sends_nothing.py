"""Wrong (third truly blind round for 15-08, issue #19): ring_pass and tree_broadcast return at once for an
empty x, with the right (empty) result but no message. ring_pass's text says "each rank sends exactly one
message, of x.numel() elements" and tree_broadcast's "every rank except src receives exactly one message (the
whole tensor)", with no exception for empty tensors.

Caught by test_ring_pass_sends_one_message_right (its "empty" case) and test_broadcast_each_rank_receives_once
(an empty (0, 4) x from the last root of each world).
"""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "fail", "ring_all_reduce": "pass", "tree_broadcast": "fail", "shards": "pass",
          "group_sums": "pass"}
CELLS = {
    "ring_pass_impl": edited("15-08", "ring_pass_impl",
        ("    outgoing = x.contiguous()\n",
         "    if x.numel() == 0:  # nothing to send\n        return torch.empty_like(x)\n"
         "    outgoing = x.contiguous()\n")),
    "tree_broadcast_impl": edited("15-08", "tree_broadcast_impl",
        ("    v = (rank - src) % world\n",
         "    if x.numel() == 0:  # nothing to broadcast\n        return x\n    v = (rank - src) % world\n")),
}
