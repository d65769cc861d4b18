"""Held-out round 8, wrong: ensemble_forward runs the vmap call under torch.no_grad(), so the result has the
right values but no autograd history: no gradient reaches x (or the stacked parameters) through it. Breaks
"the result is torch.stack([m(x) for m in models])", which is differentiable with respect to x."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "fail"}
CELLS = {"ensemble_impl": edited("16-02", "ensemble_impl", (
    "    return vmap(one, in_dims=(0, 0, 0 if per_model else None))(params, buffers, x)\n",
    "    with torch.no_grad():\n"
    "        return vmap(one, in_dims=(0, 0, 0 if per_model else None))(params, buffers, x)\n"))}
