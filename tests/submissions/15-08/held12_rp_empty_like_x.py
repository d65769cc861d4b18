"""Held-out round 12 (ring_pass, "x may be non-contiguous" and "Return a new tensor with the shape, dtype and
values of the left neighbour's x"): the receive buffer is torch.empty_like(x) rather than of the contiguous copy.
For a transposed x, empty_like keeps the transposed strides, so the buffer gloo writes into is not contiguous."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "fail"}
BASE = "reference"
CELLS = {"ring_pass_impl": edited("15-08", "ring_pass_impl", (
    "incoming = torch.empty_like(outgoing)", "incoming = torch.empty_like(x)",
))}
