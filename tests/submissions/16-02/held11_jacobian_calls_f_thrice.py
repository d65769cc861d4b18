"""Held-out round 11: jacobian calls f twice before differentiating it, once for the size of its output and
once more for its shape (to reshape the result), so f runs three times where the text allows two. The text
says "you may call f once more to learn the size of its output" (one extra call, besides the one inside
jacfwd or jacrev)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "fail", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"jacobian_impl": edited(
    "16-02", "jacobian_impl",
    ("        n_out = f(x).numel()\n    if x.numel() < n_out:\n        return jacfwd(f)(x)\n    return jacrev(f)(x)",
     "        n_out = f(x).numel()\n        out_shape = f(x).shape\n"
     "    J = jacfwd(f)(x) if x.numel() < n_out else jacrev(f)(x)\n"
     "    return J.reshape(out_shape + x.shape)"))}
