"""Wrong: "Return a new tensor with the shape, dtype and values of the left neighbour's `x`." This version
sends `torch.atleast_1d(x)` (so that a 0-d tensor "has a length") and returns the receive buffer as it
is: for a 0-d `x` the result has shape (1,) instead of (), values and dtype right. Every tensor with at
least one dimension is handled as the reference does."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "fail"}
CELLS = {"ring_pass_impl": edited(
    "15-08", "ring_pass_impl",
    ("    outgoing = x.contiguous()\n",
     "    outgoing = torch.atleast_1d(x).contiguous()\n"))}
