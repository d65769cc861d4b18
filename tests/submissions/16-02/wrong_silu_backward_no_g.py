"""backward returns the derivative f'(x) without multiplying by the incoming gradient g."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", ("return g * (s + x * s * (1 - s))", "return s + x * s * (1 - s)"))}
