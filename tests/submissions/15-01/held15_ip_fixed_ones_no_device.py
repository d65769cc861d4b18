"""Round 15: run_fixed adds the 1 as torch.ones(x.shape, dtype=x.dtype), made without device=: for x on a GPU,
exp(x) + ones raises, so run_fixed does not "compute the same value exp(x) + 1 without the error"."""
from course.grading.class_run.submissions import edited

EXPECT = {"inplace": "fail"}
CELLS = {"inplace_impl": edited("15-01", "inplace_impl", (
    "    y = torch.exp(x) + 1\n", "    y = torch.exp(x) + torch.ones(x.shape, dtype=x.dtype)\n"))}
