"""Held-out round 3: ring_all_reduce sums integer tensors in float64 'so that they cannot overflow' and casts
back: exact up to 2**53, but int64 sums beyond that are rounded (the task asks for the element-wise sum in
x's dtype)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "ring_all_reduce": "fail", "tree_broadcast": "pass", "shards": "pass",
          "group_sums": "pass"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("flat = x.reshape(-1).clone()",
     "acc = x.dtype if x.is_floating_point() else torch.float64\n    flat = x.reshape(-1).to(acc, copy=True)"),
    ("return flat.view(x.shape)", "return flat.view(x.shape).to(x.dtype)"))}
