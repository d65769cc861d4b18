"""Held-out round 28: CondBranchyNet decides with the batch's median pixel (`x.median() > 0.5`) instead of its mean.
Exercise 2: "invert the batch when its mean pixel value is above 0.5, strictly". Dark and bright batches of uniform
noise agree on both statistics; wrong on a skewed batch, e.g. 70 % of the pixels 0.3 and 30 % 1.0 (mean 0.51, median
0.3): BranchyNet inverts it, this does not."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "fail", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"cond_net_impl": edited(
    "15-05", "cond_net_impl",
    ("torch.cond(x.mean() > 0.5,", "torch.cond(x.median() > 0.5,"))}
