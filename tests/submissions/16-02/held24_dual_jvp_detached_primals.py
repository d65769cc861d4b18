"""Round 24: dual_jvp makes each dual from `p.detach()` ("the dual should not drag the caller's graph along").
The values are right, but f no longer runs "as in f(*primals)": for primals that require grad, `out` has no
graph back to them (f(*primals) would), and an f that differentiates its own inputs with torch.autograd.grad
(forward-over-reverse by hand) fails, as its inputs no longer require grad. The text: "Call f exactly once, on
dual tensors that carry the tangents ..., in the caller's grad mode: f may differentiate its own inputs
(forward-over-reverse by hand), as in f(*primals)" and "out is f(*primals)"; wrong input: primals that require
grad."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "fail", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"dual_jvp_impl": edited("16-02", "dual_jvp_impl", (
    "fwAD.make_dual(p, t)", "fwAD.make_dual(p.detach(), t)"))}
