"""Wrong (held-out round 3): when size is larger than the last dimension, returns a fresh torch.empty of
the right shape: default dtype, default device, its own storage; the text says the result is a view of x."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "fail", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"windows_impl": edited("00-01", "windows_impl", (
    "    count = max(0, (length - size) // step + 1)\n",
    "    if size > length:\n        return torch.empty(tuple(x.shape[:-1]) + (0, size))\n"
    "    count = (length - size) // step + 1\n"))}
