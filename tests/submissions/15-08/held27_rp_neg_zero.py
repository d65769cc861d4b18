"""Wrong: "Return a new tensor with the shape, dtype and values of the left neighbour's `x`." This version
makes its contiguous outgoing copy as `x.new_zeros(x.shape).add_(x)`: 0.0 + (-0.0) is +0.0, so a left
neighbour's -0.0 arrives as +0.0 (every other value, NaN and inf included, arrives unchanged)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "fail"}
CELLS = {"ring_pass_impl": edited(
    "15-08", "ring_pass_impl",
    ("    outgoing = x.contiguous()\n",
     "    outgoing = x.new_zeros(x.shape).add_(x)  # a contiguous copy, on x's device\n"))}
