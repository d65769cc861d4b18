"""Wrong: "make every tensor you create on `x`'s device (`torch.empty_like(...)`, `x.new_empty(...)` or
`device=x.device`)". This version handles a 0-d x ("a one-element ring") by building
`torch.tensor([x.item()], dtype=x.dtype)`, made without `device=`: on CUDA a 0-d x is summed and returned on
the CPU (the other shapes are right)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("    flat = x.reshape(-1).clone()\n",
     "    if x.dim() == 0:  # a scalar: a one-element vector\n"
     "        flat = torch.tensor([x.item()], dtype=x.dtype)\n"
     "    else:\n"
     "        flat = x.reshape(-1).clone()\n"))}
