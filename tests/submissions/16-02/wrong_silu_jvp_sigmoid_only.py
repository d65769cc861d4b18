"""jvp multiplies the tangent by sigmoid(x) alone (the derivative of x * s is taken as s): forward mode is wrong
while backward is right."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", ("return t * (s + x * s * (1 - s))", "return t * s"))}
