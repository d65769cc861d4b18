"""Second pass of round 21 (not counted). Wrong: "Return a new tensor of `x`'s shape, dtype and device". This
version returns early for an empty x with `torch.empty(x.shape, device=x.device)`: the default float32 dtype,
so an empty int64 or float64 x comes back as float32."""
from course.grading.class_run.submissions import edited

EXPECT = {"group_sums": "fail"}
CELLS = {"group_sums_impl": edited(
    "15-08", "group_sums_impl",
    ("    rank = dist.get_rank()\n",
     "    if x.numel() == 0:  # nothing to sum\n"
     "        return torch.empty(x.shape, device=x.device)\n"
     "    rank = dist.get_rank()\n"))}
