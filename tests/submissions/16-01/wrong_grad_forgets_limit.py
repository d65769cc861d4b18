"""Uses the derivative of tanh at y, 1 - y**2, forgetting that y was scaled by limit."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad": "fail"}
CELLS = {"grad_impl": edited("16-01", "grad_impl", ("return grad * (1 - (y / ctx.limit) ** 2), None",
                                                    "return grad * (1 - y ** 2), None"))}
