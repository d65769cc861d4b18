"""Round 16 held-out: view_meta's slice turns a negative start or stop into a position with `% size`,
which wraps a start or stop below -size around instead of clamping it to 0 as Python does."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    """        start = 0 if start is None else start + size if start < 0 else start
        stop = size if stop is None else stop + size if stop < 0 else stop
""", """        start = 0 if start is None else start % size if start < 0 and size else start
        stop = size if stop is None else stop % size if stop < 0 and size else stop
"""))}
