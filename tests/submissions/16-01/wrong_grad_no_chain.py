"""Returns the local derivative without multiplying by the incoming gradient."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad": "fail"}
CELLS = {"grad_impl": edited("16-01", "grad_impl", ("return grad * (1 - (y / ctx.limit) ** 2), None",
                                                    "return 1 - (y / ctx.limit) ** 2, None"))}
