"""Wrong (held-out round 3): uses x.as_strided_ (the in-place method) and so rewrites x's own header: the
result shares the storage and has unfold's shape, strides and values, but x is no longer unchanged."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "fail", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"windows_impl": edited("00-01", "windows_impl", ("    return x.as_strided(", "    return x.as_strided_("))}
