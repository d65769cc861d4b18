"""Held-out round 27: CondBranchyNet takes the batch mean as `x.mean(dim=(0, 1, 2, 3))` (the four dimensions of an
image batch) instead of `x.mean()`. Exercise 2: "computes exactly what `BranchyNet` computes (invert the batch when
its mean pixel value is above 0.5, strictly; then the same MLP)". The same number on (N, 1, 28, 28) batches, but
BranchyNet takes any batch whose rows flatten to 784 pixels: on a batch of flat images, shape (N, 784), BranchyNet
returns logits, this one raises IndexError (dimension out of range)."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "fail", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"cond_net_impl": edited(
    "15-05", "cond_net_impl",
    ("torch.cond(x.mean() > 0.5,", "torch.cond(x.mean(dim=(0, 1, 2, 3)) > 0.5,"))}
