"""Round 19s (after the contract walk, not counted): ensemble_forward turns requires_grad off on every model
("only the forward runs here, the stacked copies need no gradient") and back on for every parameter afterwards:
a parameter the caller had frozen comes back trainable. The text: "Leave the models as they were: their parameters
(values and which are frozen)" (no check froze a parameter of an ensemble's models)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "fail"}
CELLS = {"ensemble_impl": edited("16-02", "ensemble_impl", (
    "    params, buffers = stack_module_state(models)\n",
    "    for m in models:\n        m.requires_grad_(False)\n    params, buffers = stack_module_state(models)\n"
    "    for m in models:\n        m.requires_grad_(True)\n"))}
