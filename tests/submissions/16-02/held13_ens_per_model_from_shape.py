"""Held-out round 13: the mode is guessed from x's shape as well as read from the flag: a batch whose first
dimension equals the number of models is split across them even with per_model=False. For B == M the
result is models[m](x[m]) broadcast instead of every model on the whole batch. The text: "With
`per_model=False`, `x` is one batch `(B, ...)` that every model gets"."""
from course.grading.class_run.submissions import edited

EXPECT = {"ensemble": "fail"}
CELLS = {"ensemble_impl": edited(
    "16-02", "ensemble_impl",
    ("    return vmap(one, in_dims=(0, 0, 0 if per_model else None))(params, buffers, x)",
     "    per_model = per_model or (x.dim() >= 2 and x.shape[0] == len(models))\n"
     "    return vmap(one, in_dims=(0, 0, 0 if per_model else None))(params, buffers, x)"))}
