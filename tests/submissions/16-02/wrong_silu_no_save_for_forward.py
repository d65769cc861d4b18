"""setup_context saves x for backward only; jvp then finds nothing in ctx.saved_tensors."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", ("        ctx.save_for_forward(x)\n", ""))}
