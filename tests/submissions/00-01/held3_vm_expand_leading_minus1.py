"""Wrong (held-out round 3): expand takes -1 in a new leading dimension as size 1 ("keep this size" of
a dimension that is not there yet); PyTorch raises RuntimeError, and the text says -1 keeps a size."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    '                if want < 0:\n                    raise RuntimeError("expand: -1 is not allowed in a new leading dimension")\n',
    '                want = 1 if want == -1 else want\n'))}
