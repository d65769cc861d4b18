"""Held-out round 3: group_sums all-reduces integer tensors as float64 and casts back: int64 sums past 2**53
are rounded (the task asks for the element-wise sum in x's dtype)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "ring_all_reduce": "pass", "tree_broadcast": "pass", "shards": "pass",
          "group_sums": "fail"}
CELLS = {"group_sums_impl": edited(
    "15-08", "group_sums_impl",
    ("    out = x.clone()\n    dist.all_reduce(out, group=mine)\n    return out",
     "    out = x.clone() if x.is_floating_point() else x.to(torch.float64)\n"
     "    dist.all_reduce(out, group=mine)\n    return out.to(x.dtype)"))}
