"""OpLogger: baddbmm shares the bmm branch and reads its factors from args[0] and args[1], i.e. the added c and the first factor. The count is right only when c has the full (B, m, n) shape; with a broadcast c it is wrong or crashes. Breaks 'baddbmm(c, a, b) counts as the bmm of a and b'. Same idea as ol_addmm_reads_bias, for baddbmm; caught by test_matmul_ops's broadcast added tensors (shape (n,), (m, n) or (m, 1))."""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'pass', 'op_logger': 'fail'}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl",
    ('a, b = (args[0], args[1]) if name == "aten.bmm" else (args[1], args[2])',
     'a, b = args[0], args[1]'))}
