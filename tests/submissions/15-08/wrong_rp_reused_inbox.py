"""Wrong (third truly blind round for 15-08, issue #19): ring_pass keeps one receive buffer per (shape, dtype)
in a module dict, to save an allocation, and returns it. A second call with the same shape receives into the
tensor the first call returned, so the first result changes under the caller's feet: not "a new tensor".

Caught by test_ring_pass_new_tensor_each_call: the probe flags a result that lies in the memory of a tensor an
earlier case on that rank returned, and the ring_pass cases end with a second float32 (3, 5) call.
"""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "fail", "ring_all_reduce": "pass", "tree_broadcast": "pass", "shards": "pass",
          "group_sums": "pass"}
CELLS = {"ring_pass_impl": edited("15-08", "ring_pass_impl",
    ("def ring_pass(", "_INBOXES = {}\n\n\ndef ring_pass("),
    ("    incoming = torch.empty_like(outgoing)\n",
     "    incoming = _INBOXES.setdefault((outgoing.shape, outgoing.dtype), torch.empty_like(outgoing))\n"))}
