"""Held-out round 8, wrong: jacobian differentiates f at x.double() "for accuracy", so a float32 x gets a
float64 Jacobian. Breaks "Return the Jacobian of f at x ... equal to torch.autograd.functional.jacobian(f, x)",
which keeps x's dtype (float32 in, float32 out)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "fail", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"jacobian_impl": edited("16-02", "jacobian_impl", (
    "    with torch.no_grad():\n",
    "    x = x.double()\n    with torch.no_grad():\n"))}
