"""Held-out round 23: CondBranchyNet takes the batch mean in float64 ("so that float16 sums cannot overflow") before
comparing with 0.5: on a float32 batch whose float32 mean is exactly 0.5 (BranchyNet does not invert) but whose exact
mean is 0.5 + 1.6e-8, it inverts. Exercise 2's text: CondBranchyNet "computes exactly what BranchyNet computes"
(BranchyNet's x.mean() in the batch's own dtype)."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "fail", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"cond_net_impl": edited("15-05", "cond_net_impl", ("torch.cond(x.mean() > 0.5", "torch.cond(x.double().mean() > 0.5"))}
