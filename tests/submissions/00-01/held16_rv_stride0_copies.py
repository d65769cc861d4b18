"""Round 16 held-out: reshape_is_view answers False for any layout with a stride-0 dimension of size
above 1 ("an expanded tensor always copies"), though reshape keeps it a view when the new shape only
splits or keeps the expanded dimension (zeros(3, 1).expand(3, 4).reshape(3, 2, 2) is a view)."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "fail", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"reshape_view_impl": edited("00-01", "reshape_view_impl", (
    "    try:\n", "    if any(st == 0 and n > 1 for n, st in zip(shape, stride)):\n        return False\n    try:\n"))}
