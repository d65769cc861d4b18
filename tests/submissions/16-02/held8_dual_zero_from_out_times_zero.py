"""Held-out round 8, wrong: when the output has no tangent, dual_jvp makes its zeros as out * 0, which is
NaN wherever the output is infinite or NaN. Breaks "When the output does not depend on the primals (its
tangent is None), jvp_out is a tensor of zeros of the output's shape, dtype and device"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "fail", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"dual_jvp_impl": edited("16-02", "dual_jvp_impl", (
    "            tangent = torch.zeros_like(out)\n",
    "            tangent = out.detach() * 0\n"))}
