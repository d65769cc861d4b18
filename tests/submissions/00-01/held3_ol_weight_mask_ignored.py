"""Wrong (held-out round 3): convolution_backward always adds the weight gradient's FLOPs, reading only
output_mask[0]; with a frozen weight (output_mask[1] false) FlopCounterMode counts no weight gradient."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "fail"}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl", ("            if mask[1]:\n", "            if True:\n"))}
