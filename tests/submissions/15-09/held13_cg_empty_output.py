"""Held-out round 13 (check_gradients, "one row per output element" and "Its verdict must agree with
torch.autograd.gradcheck"): the analytic Jacobian is stacked from its rows, so a function whose output has no
element (x[:0], an empty batch) raises from torch.stack([]) instead of returning True as gradcheck does."""
from course.grading.class_run.submissions import edited

EXPECT = {"gradcheck": "fail"}
BASE = "reference"
CELLS = {"gradcheck_impl": edited("15-09", "gradcheck_impl", (
    "analytic = torch.stack([r[k] for r in rows]) if rows else torch.zeros_like(num)",
    "analytic = torch.stack([r[k] for r in rows])",
))}
