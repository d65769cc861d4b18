"""Held-out round 13: one model needs no vmap, so M == 1 returns models[0](x).unsqueeze(0), forgetting that
with per_model=True x is (1, B, ...) and the model must get x[0]. The text: "with `per_model=True`, `x` has
shape `(M, B, ...)` and row `m` of the result is `models[m](x[m])`" (M = 1 included: "a non-empty list")."""
from course.grading.class_run.submissions import edited

EXPECT = {"ensemble": "fail"}
CELLS = {"ensemble_impl": edited(
    "16-02", "ensemble_impl",
    ("    params, buffers = stack_module_state(models)\n",
     "    if len(models) == 1:\n        return models[0](x).unsqueeze(0)\n"
     "    params, buffers = stack_module_state(models)\n"))}
