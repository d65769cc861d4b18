"""Wrong: "Return a new tensor of `x`'s shape and dtype; leave `x` unchanged." This version takes a
shortcut for a one-rank world ("nothing to add, nothing to send") and returns `x` itself. On a world of
one rank the result is the caller's own tensor: writing into it writes into `x`. Every world of 2 or more
ranks is the reference ring."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("    flat = x.reshape(-1).clone()\n",
     "    if world == 1:  # nothing to add, nothing to send\n"
     "        return x\n"
     "    flat = x.reshape(-1).clone()\n"))}
