"""Held-out round 27: CondBranchyNet flattens with `x.reshape(len(x), -1)` instead of `x.flatten(1)`. Exercise 2:
"Write `CondBranchyNet(hidden=32)`, an `nn.Module` that computes exactly what `BranchyNet` computes". Right on every
non-empty batch (contiguous or not), wrong on an empty batch (0 images, e.g. the last slice of a filtered batch):
BranchyNet returns logits of shape (0, 10) (its mean is NaN, not above 0.5; `flatten(1)` keeps the 0), while
`reshape(0, -1)` raises "cannot reshape tensor of 0 elements"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "fail", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"cond_net_impl": edited(
    "15-05", "cond_net_impl",
    ("self.fc1(x.flatten(1))", "self.fc1(x.reshape(len(x), -1))"))}
