"""Held-out round 8, wrong: ensemble_forward sets requires_grad_(False) on every model so that the stacked
tensors carry no autograd state, and never sets it back: the models come back frozen. Breaks "Leave the
models as they were: their parameters, buffers and mode unchanged" (a parameter that no longer requires
grad is no longer trained)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "fail"}
CELLS = {"ensemble_impl": edited("16-02", "ensemble_impl", (
    "    params, buffers = stack_module_state(models)\n",
    "    for m in models:\n        m.requires_grad_(False)\n    params, buffers = stack_module_state(models)\n"))}
