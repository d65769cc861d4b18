"""Held-out round 8, wrong: hvp differentiates along the unit direction v / |v| and scales back by |v|, so a
zero v gives 0 / 0 = NaN instead of zeros. Breaks "Return H v with x's shape" (v has x's shape and dtype, any
values: H 0 = 0)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "fail", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"hvp_impl": edited("16-02", "hvp_impl", (
    "    return jvp(grad(f), (x,), (v,))[1]\n",
    "    norm = v.norm()\n    return jvp(grad(f), (x,), (v / norm,))[1] * norm\n"))}
