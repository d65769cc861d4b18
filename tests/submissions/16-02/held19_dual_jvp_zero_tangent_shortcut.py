"""Round 19: dual_jvp skips the dual numbers when every tangent is zero ("J times 0 is 0"): it calls f on the
plain primals and returns zeros. torch.func.jvp returns J t with J's own values, so where a derivative is
infinite (sqrt at 0) a zero tangent gives nan, not 0, and f was not run on dual tensors. The text: "jvp_out is
the Jacobian of f at the primals applied to the tangents (what torch.func.jvp returns)" and "Call f exactly once,
on dual tensors that carry the tangents"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "fail", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"dual_jvp_impl": edited("16-02", "dual_jvp_impl", (
    "    with fwAD.dual_level():\n",
    "    if all(not bool(t.any()) for t in tangents):\n        out = f(*primals)\n"
    "        return out, torch.zeros_like(out)\n    with fwAD.dual_level():\n"))}
