"""Known-wrong OpLogger (gap round): counts a convolution's output positions as height times width,
so only 2-d convolutions are right (a conv1d raises IndexError, a conv3d is undercounted) ("input x of
shape (N, C_in, ...)", "output of spatial shape out")."""
from course.grading.class_run.submissions import edited

CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl",
    ("math.prod(out.shape[2:])", "out.shape[2] * out.shape[3]"),
    ("spatial = math.prod(grad_out.shape[2:])", "spatial = grad_out.shape[2] * grad_out.shape[3]"))}
EXPECT = {"op_logger": "fail"}
