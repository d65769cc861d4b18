"""Two-stage pipeline whose rank 1 runs its backwards from the last micro-batch to the first (as autograd
unwinds a stack), while rank 0 takes the gradients in the order 0..M-1: each gradient meets the wrong
micro-batch."""
from course.grading.class_run.submissions import edited

EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", (
    "        else:\n            h, loss = kept.pop(m)\n",
    "        else:\n            h, loss = kept.pop(max(kept))\n"))}
