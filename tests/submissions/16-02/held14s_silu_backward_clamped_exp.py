"""Round 14s: SiLU's backward writes sigmoid as e / (1 + e) with e = exp(x.clamp(max=80)) "so that exp cannot
overflow" (it cannot in float32 or float64, so the +-1000 checks pass), but in float16 exp(x) is inf from x > 11.1
and inf / inf is nan: the gradient of a float16 x = 12 is nan where F.silu's is 1. The text: "SiLU.apply(x) takes
a floating-point tensor" and "backward(ctx, g) returns g * f'(x)" (the old checks read backward in float32 and
float64 only, never in float16 or bfloat16)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", (
    "        (x,) = ctx.saved_tensors\n        s = torch.sigmoid(x)\n        return g * (s + x * s * (1 - s))",
    "        (x,) = ctx.saved_tensors\n        e = torch.exp(x.clamp(max=80))\n        s = e / (1 + e)\n"
    "        return g * (s + x * s * (1 - s))"))}
