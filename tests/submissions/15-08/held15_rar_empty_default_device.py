"""Wrong: "make every tensor you create on `x`'s device" (the NCCL sentence). This version answers an empty
x early with `torch.zeros(x.shape, dtype=x.dtype)`: a new empty tensor of x's shape and dtype, but on the
default device, not on x's."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("    flat = x.reshape(-1).clone()\n",
     "    if x.numel() == 0:  # nothing to sum\n"
     "        return torch.zeros(x.shape, dtype=x.dtype)\n"
     "    flat = x.reshape(-1).clone()\n"))}
