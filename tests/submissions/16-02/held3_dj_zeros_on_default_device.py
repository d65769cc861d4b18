"""Held-out round 3: dual_jvp builds the zero jvp of an output without a tangent with
torch.zeros(out.shape, dtype=out.dtype): the default device, so on a GPU a CPU tensor for a CUDA output
(torch.func.jvp, which the task says dual_jvp returns the same as, gives zeros on the output's device)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "fail", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"dual_jvp_impl": edited(
    "16-02", "dual_jvp_impl",
    ("tangent = torch.zeros_like(out)", "tangent = torch.zeros(out.shape, dtype=out.dtype)"))}
