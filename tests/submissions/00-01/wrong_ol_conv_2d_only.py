"""op_logger: the convolution counts take the spatial size as out.shape[2] * out.shape[3] and the kernel as
w.shape[2] * w.shape[3] (forward, input gradient and weight gradient alike), which fits only Conv2d: a Conv1d
raises IndexError inside __torch_dispatch__ and a Conv3d is under-counted. Breaks 'x of shape (N, C_in, ...)
... counts 2*N*prod(out)*prod(w.shape)' and 'the dict must equal what FlopCounterMode reports'. Found by the
second blind round (issue #19); closed by test_conv's Conv1d and Conv3d cases."""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'pass', 'op_logger': 'fail'}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl",
    ("count = 2 * x.shape[0] * math.prod(out.shape[2:]) * math.prod(w.shape)",
     "count = 2 * x.shape[0] * out.shape[2] * out.shape[3] * math.prod(w.shape)"),
    ("spatial = math.prod(grad_out.shape[2:])", "spatial = grad_out.shape[2] * grad_out.shape[3]"),
    ("math.prod(w.shape[2:])", "w.shape[2] * w.shape[3]"))}
