"""OpLogger: counts a product only when its first tensor argument is floating point ('FLOPs are floating-point
operations'), so integer mm/addmm/bmm/baddbmm get no entry, while FlopCounterMode counts them by the same
formulas. Breaks 'The dict must equal what FlopCounterMode reports for the same code'. Caught by
test_matmul_ops' int64 forward case."""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass',
          'stale_nodes': 'pass', 'op_logger': 'fail'}
CELLS = {"op_logger_impl": edited(
    "00-01", "op_logger_impl",
    ("if count is not None:", "if count is not None and args[0].dtype.is_floating_point:"))}
