"""Held-out round 11: windows calls x.as_strided_ (the in-place form) instead of x.as_strided: it returns x
itself with the windows' shape, strides and values, sharing x's storage, but x's own header is rewritten
(x.shape becomes the windows' shape). The text: "The result is a view of x: it shares x's storage, and x is
left unchanged"."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "fail", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"windows_impl": edited("00-01", "windows_impl", ("return x.as_strided(", "return x.as_strided_("))}
