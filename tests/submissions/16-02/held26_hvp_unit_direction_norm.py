"""Round 26: hvp rescales the direction to unit length "for numerical stability" and scales the product back:
u = v / |v| (with |v| = 0 replaced by 1, so that a zero v still gives exact zeros on x's device), H v = |v| * H u.
The norm of v under- or overflows although v and H v are ordinary numbers of the dtype: for float32 v of entries
1e-30 (|v|^2 = 1e-60 underflows to 0) the answer is H v * 0 = 0 instead of about 1e-30 * H; for float32 v of
entries 1e20 (|v|^2 overflows to inf) it is 0 * inf = NaN. The text: "Return `H v` with `x`'s shape and device,
where `H` is the Hessian of `f` at `x`", for any v of x's shape and dtype; wrong input: float32 v = 1e-30 or 1e20
everywhere (float64: 1e-170 or 1e160)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "fail", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"hvp_impl": edited("16-02", "hvp_impl", (
    "    return jvp(grad(f), (x,), (v,))[1]\n",
    "    scale = torch.linalg.vector_norm(v)\n"
    "    u = v / torch.where(scale == 0, torch.ones_like(scale), scale)\n"
    "    return jvp(grad(f), (x,), (u,))[1] * scale\n"))}
