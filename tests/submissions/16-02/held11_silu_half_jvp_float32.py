"""Held-out round 11: SiLU's jvp computes the slope in float32 for float16 and bfloat16 inputs "for accuracy" and
returns that float32 product as the tangent. The forward and backward are right (autograd casts a float32
gradient back to the input's dtype), but PyTorch does not cast a custom Function's jvp output: under dual
numbers or torch.func.jvp the float16 output carries a float32 tangent, where F.silu's tangent is float16.
The text says "jvp(ctx, t) returns t * f'(x)" (for a float16 t, a float16 product) for "a floating-point
tensor of any shape", and forward mode is to agree with F.silu's."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"silu_impl": edited(
    "16-02", "silu_impl",
    ("        (x,) = ctx.saved_tensors\n        s = torch.sigmoid(x)\n        return t * (s + x * s * (1 - s))",
     "        (x,) = ctx.saved_tensors\n"
     "        if x.dtype in (torch.float16, torch.bfloat16):  # the slope in float32, for accuracy\n"
     "            x, t = x.float(), t.float()\n"
     "        s = torch.sigmoid(x)\n        return t * (s + x * s * (1 - s))"))}
