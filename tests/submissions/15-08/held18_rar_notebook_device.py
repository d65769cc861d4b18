"""Wrong: "make every tensor you create on `x`'s device (`torch.empty_like(...)`, `x.new_empty(...)` or
`device=x.device`)". This version builds each receive buffer on the notebook's `DEVICE` (the setup cell's
pick_device()), which is not x's device when x lives on `cuda:rank` of another GPU, or on the CPU of a GPU
machine."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("        incoming = torch.empty_like(chunks[in_idx])\n",
     "        incoming = torch.empty(chunks[in_idx].shape, dtype=x.dtype, device=DEVICE)\n"))}
