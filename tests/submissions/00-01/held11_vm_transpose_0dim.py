"""Held-out round 11: view_meta wraps every transpose dimension against the tensor's own number of
dimensions, so view_meta((), (), 0, "transpose", (0, -1)) raises IndexError where PyTorch's
torch.tensor(1.).transpose(0, -1) returns the 0-dim tensor unchanged. The text: "Dimensions may be
negative, as in PyTorch; a dimension out of range raises IndexError" and "The result must equal what
PyTorch's own operation gives": for a 0-dim tensor PyTorch's range is [-1, 0]."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl",
                                  ("if not all(d in (-1, 0) for d in args[:2]):", "if True:"))}
