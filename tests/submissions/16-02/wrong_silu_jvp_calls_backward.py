"""jvp reuses backward (the formula is the same elementwise): right values, but forward mode runs backward."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", (
    "        s = torch.sigmoid(x)\n        return t * (s + x * s * (1 - s))",
    "        return SiLU.backward(ctx, t)"))}
