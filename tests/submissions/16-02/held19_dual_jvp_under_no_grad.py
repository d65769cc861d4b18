"""Round 19: dual_jvp runs the whole forward pass under torch.no_grad() "since forward mode keeps nothing for a
backward pass": the dual numbers still give J t, but f no longer runs in the caller's grad mode. An f that
differentiates inside (forward-over-reverse by hand: torch.autograd.grad(..., create_graph=True) of its dual
input) raises, and for primals that require grad neither result carries gradients back, where torch.func.jvp's
do. The text: "out is f(*primals) and jvp_out is the Jacobian of f at the primals applied to the tangents (what
torch.func.jvp returns)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "fail", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"dual_jvp_impl": edited("16-02", "dual_jvp_impl", (
    "    with fwAD.dual_level():\n",
    "    with torch.no_grad(), fwAD.dual_level():\n"))}
