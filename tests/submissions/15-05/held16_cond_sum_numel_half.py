"""Round 16: CondBranchyNet computes the mean as x.sum() / x.numel(): after .half(), the sum of a large batch
overflows float16 (above 65504: 200 images of mean 0.45 sum to about 70560 -> inf), so a dark batch is inverted,
while BranchyNet's x.mean() (accumulated in float32) is 0.45 ("computes exactly what BranchyNet computes")."""
from course.grading.class_run.submissions import edited

EXPECT = {"cond_net": "fail"}
CELLS = {"cond_net_impl": edited("15-05", "cond_net_impl", (
    "torch.cond(x.mean() > 0.5,", "torch.cond(x.sum() / x.numel() > 0.5,"))}
