"""Held-out round 11: windows returns a fresh torch.empty(x.shape[:-1] + (0, size)) (right dtype and device)
when size is larger than the last dimension: the shape is right but the result is a new tensor, not a view
of x. The text: "The result is a view of x: it shares x's storage", for every result, the empty one
included."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "fail", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"windows_impl": edited("00-01", "windows_impl",
                                ("    count = max(0, (length - size) // step + 1)\n",
                                 "    count = max(0, (length - size) // step + 1)\n"
                                 "    if count == 0:\n"
                                 "        return torch.empty(tuple(x.shape[:-1]) + (0, size), dtype=x.dtype, device=x.device)\n"))}
