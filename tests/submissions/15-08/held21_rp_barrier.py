"""Wrong: "Each rank sends exactly one message, of `x.numel()` elements, and calls no collective". This
version ends with `dist.barrier()` "so that no rank returns while its neighbour is still receiving": a
barrier is a collective (every rank of the group takes part)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "fail"}
CELLS = {"ring_pass_impl": edited(
    "15-08", "ring_pass_impl",
    ("    return incoming\n",
     "    dist.barrier()  # wait until every rank has its tensor\n    return incoming\n"))}
