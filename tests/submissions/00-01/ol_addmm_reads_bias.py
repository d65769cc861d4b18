"""op_logger: one branch for mm and addmm that reads the matrices from args[0] and args[1], right for mm but
for addmm(bias, a, b) it takes the bias as the left matrix (a 1-d bias of a Linear layer even crashes the
shape read, a 2-d one gives the wrong count). Breaks the addmm count."""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'pass', 'op_logger': 'fail'}
CELLS = {
    "op_logger_impl": edited("00-01", "op_logger_impl",
    ('            a, b = args[-2], args[-1]\n',
     '            a, b = args[0], args[1]\n')),
}
