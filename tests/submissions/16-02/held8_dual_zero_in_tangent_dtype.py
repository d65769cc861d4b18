"""Held-out round 8, wrong: the zeros for an output without a tangent take the dtype of the first tangent
(and the output's shape and device), not the output's dtype. Breaks "jvp_out is a tensor of zeros of the
output's shape, dtype and device" when f returns a tensor of another dtype than its inputs."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "fail", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"dual_jvp_impl": edited("16-02", "dual_jvp_impl", (
    "            tangent = torch.zeros_like(out)\n",
    "            tangent = torch.zeros(out.shape, dtype=tangents[0].dtype, device=out.device)\n"))}
