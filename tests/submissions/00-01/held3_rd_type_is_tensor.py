"""Wrong (held-out round 3): tells tensors from Python numbers with `type(v) is torch.Tensor`, so a tensor
subclass such as nn.Parameter (a tensor, which the text allows) is refused with TypeError."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "fail",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"result_dtype_impl": edited("00-01", "result_dtype_impl", (
    "        if isinstance(v, torch.Tensor):\n", "        if type(v) is torch.Tensor:\n"))}
