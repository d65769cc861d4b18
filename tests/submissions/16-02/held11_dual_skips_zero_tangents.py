"""Held-out round 11: dual_jvp makes a dual tensor only for the primals whose tangent has a nonzero entry and
passes the others to f as plain tensors ("a zero tangent adds nothing"). f then sees plain arguments, and
where f's derivative is infinite (sqrt at 0, say) torch.func.jvp's 0 * inf = NaN becomes a zero. The text says
"Call f exactly once, on dual tensors that carry the tangents" and "jvp_out is ... what torch.func.jvp
returns"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "fail", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"dual_jvp_impl": edited(
    "16-02", "dual_jvp_impl",
    ("duals = [fwAD.make_dual(p, t) for p, t in zip(primals, tangents)]",
     "duals = [fwAD.make_dual(p, t) if bool((t != 0).any()) else p for p, t in zip(primals, tangents)]"))}
