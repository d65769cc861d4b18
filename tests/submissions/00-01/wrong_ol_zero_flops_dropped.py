"""Wrong (blind batch, issue #19, third round for 00-01, closed after it): adds to the dict only when the count is non-zero (`if n:`), so an mm with an empty dimension that ran gets no entry, while FlopCounterMode reports it with 0 ('must equal what FlopCounterMode reports').

Caught by test_matmul_ops, whose forward-only case has an empty inner dimension (k = 0).
"""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'pass', 'op_logger': 'fail'}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl",
    ("        if count is not None:\n", "        if count:\n"))}
