"""windows: any x without elements is answered with no windows, shape x.shape[:-1] + (0, size), even when only a
leading dimension is empty and the last one is long enough: for x of shape (0, 5) and size 2, unfold gives
(0, 4, 2). Breaks 'Its shape, strides and values equal those of x.unfold(-1, size, step)' for zero-size x."""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'pass', 'windows': 'fail', 'reshape_view': 'pass', 'result_dtype': 'pass',
          'stale_nodes': 'pass', 'op_logger': 'pass'}
CELLS = {"windows_impl": edited(
    "00-01", "windows_impl",
    ("count = max(0, (length - size) // step + 1)",
     "count = 0 if x.numel() == 0 else max(0, (length - size) // step + 1)"))}
