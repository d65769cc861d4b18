"""op_logger: the forward convolution count uses the input's channel count x.shape[1] (as in the weight-gradient
formula) instead of the weight's C_in/groups, so a grouped Conv2d is counted groups times too high. Right for
groups=1. Breaks 'the dict must equal what FlopCounterMode reports' for groups > 1."""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'pass', 'op_logger': 'fail'}
CELLS = {
    "op_logger_impl": edited("00-01", "op_logger_impl",
    ('            count = 2 * x.shape[0] * math.prod(out.shape[2:]) * math.prod(w.shape)\n',
     '            count = 2 * x.shape[0] * math.prod(out.shape[2:]) * w.shape[0] * x.shape[1] * math.prod(w.shape[2:])\n')),
}
