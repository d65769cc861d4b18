"""Round 14s: SiLU's jvp writes sigmoid as e / (1 + e) with e = exp(x.clamp(max=80)) (finite in float32 and
float64 up to +-1000), which in float16 is inf / inf = nan from x > 11.1: the tangent at a float16 x = 12 is nan
where F.silu's is t. The text: "jvp(ctx, t) returns t * f'(x)" for "a floating-point tensor" (the old checks read
the float16 tangent on six draws of 3 * randn only)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", (
    "        (x,) = ctx.saved_tensors\n        s = torch.sigmoid(x)\n        return t * (s + x * s * (1 - s))",
    "        (x,) = ctx.saved_tensors\n        e = torch.exp(x.clamp(max=80))\n        s = e / (1 + e)\n"
    "        return t * (s + x * s * (1 - s))"))}
