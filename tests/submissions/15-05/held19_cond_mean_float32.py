"""Held-out round 19: CondBranchyNet averages the batch in float32 ("float16 sums overflow") before comparing with
0.5. BranchyNet compares x.mean() in the batch's own dtype: a float16 (or bfloat16) batch whose true mean is a little
above 0.5 has a float16 mean of exactly 0.5, which BranchyNet does not invert and this answer does. Exercise 2's
text: CondBranchyNet "computes exactly what BranchyNet computes" (the .half() model gives BranchyNet's float16
logits)."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "fail", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"cond_net_impl": edited("15-05", "cond_net_impl",
                           ("torch.cond(x.mean() > 0.5,", "torch.cond(x.float().mean() > 0.5,  # float16 sums overflow\n                       "))}
