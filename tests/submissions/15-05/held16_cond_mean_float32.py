"""Round 16: CondBranchyNet takes the batch's mean in float32 (x.float().mean()) whatever the batch's dtype: after
.double(), a float64 batch whose mean is above 0.5 by less than float32's resolution (0.5 + 1e-9) rounds to 0.5
and is not inverted, while BranchyNet (x.mean() in float64) inverts it ("computes exactly what BranchyNet
computes (invert the batch when its mean pixel value is above 0.5, strictly)")."""
from course.grading.class_run.submissions import edited

EXPECT = {"cond_net": "fail"}
CELLS = {"cond_net_impl": edited("15-05", "cond_net_impl", (
    "torch.cond(x.mean() > 0.5,", "torch.cond(x.float().mean() > 0.5,"))}
