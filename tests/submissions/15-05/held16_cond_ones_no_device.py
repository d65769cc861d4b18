"""Round 16: CondBranchyNet's inverting branch builds its ones with torch.ones(t.shape, dtype=t.dtype), without
device=: on the CPU it is right, but a model and batch on another device (a GPU) mix devices and raise, while
BranchyNet (1.0 - x) runs anywhere ("computes exactly what BranchyNet computes")."""
from course.grading.class_run.submissions import edited

EXPECT = {"cond_net": "fail"}
CELLS = {"cond_net_impl": edited("15-05", "cond_net_impl", (
    "lambda t: 1.0 - t,", "lambda t: torch.ones(t.shape, dtype=t.dtype) - t,"))}
