"""Round 22s (written after reading the checks, not counted): dual_jvp turns grad on around f only when a primal
requires grad ("then f may want to differentiate it"). Under grad mode it is the reference; a caller under
torch.no_grad() with primals that require grad gets an f run with grad on and an out that requires grad, where
f(*primals) there has neither. The text: "Call f exactly once ... in the caller's grad mode ... as in
f(*primals)" (round 22's enable_grad answer was read under grad mode only)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "fail", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"dual_jvp_impl": edited("16-02", "dual_jvp_impl", (
    "    with fwAD.dual_level():",
    "    wants_grad = any(p.requires_grad for p in primals)\n"
    "    with fwAD.dual_level(), torch.set_grad_enabled(wants_grad or torch.is_grad_enabled()):"))}
