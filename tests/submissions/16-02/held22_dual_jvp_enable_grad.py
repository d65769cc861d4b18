"""Round 22: "f may differentiate its own inputs", so dual_jvp runs f under torch.enable_grad(). An f that
differentiates its input works (as the reference's does under grad mode), but a caller in torch.no_grad() now
gets an f that runs with grad on: f sees torch.is_grad_enabled() True and the output of primals that require
grad carries a grad_fn, where f(*primals) under no_grad gives neither. The text: "Call f exactly once ... in the
caller's grad mode ... as in f(*primals)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "fail", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"dual_jvp_impl": edited("16-02", "dual_jvp_impl", (
    "    with fwAD.dual_level():", "    with fwAD.dual_level(), torch.enable_grad():"))}
