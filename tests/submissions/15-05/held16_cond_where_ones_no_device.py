"""Round 16 (written after phase 1, the class of held16_cond_ones_no_device without its stride mismatch): a
branch-free torch.where whose inverted side is torch.ones(x.shape, dtype=x.dtype) - x, made without device=: right
on the CPU, but a model and batch on another device (a GPU) mix devices and raise, while BranchyNet (1.0 - x) runs
anywhere ("computes exactly what BranchyNet computes")."""
from course.grading.class_run.submissions import edited

EXPECT = {"cond_net": "fail"}
CELLS = {"cond_net_impl": edited("15-05", "cond_net_impl", (
    "        x = torch.cond(x.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))",
    "        x = torch.where(x.mean() > 0.5, torch.ones(x.shape, dtype=x.dtype) - x, x)"))}
