"""Wrong: "Return a new tensor of `x`'s shape, dtype and device". This version builds its result on the
notebook's `DEVICE` (the setup cell's pick_device()) and copies x into it: on a GPU machine with x on the
CPU (gloo) the result is on the GPU, not on x's device."""
from course.grading.class_run.submissions import edited

EXPECT = {"group_sums": "fail"}
CELLS = {"group_sums_impl": edited(
    "15-08", "group_sums_impl",
    ("    out = x.clone()\n",
     "    out = torch.empty(x.shape, dtype=x.dtype, device=DEVICE).copy_(x)\n"))}
