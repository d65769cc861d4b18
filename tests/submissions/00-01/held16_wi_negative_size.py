"""Round 16 held-out: windows rejects size or step of 0 with `not size`, but lets a negative size or
step through (the text: "Raise ValueError ... when size or step is below 1")."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "fail", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"windows_impl": edited("00-01", "windows_impl", ("if size < 1 or step < 1:", "if not size or not step:"))}
