"""Wrong (held-out round 8): OpLogger also counts matrix-vector and vector products (aten.mv as 2*m*k,
aten.dot as 2*k), which FlopCounterMode does not count. Breaks "other operators ... have no entry" and "the
dict must equal what FlopCounterMode reports for the same code" (A @ v with a 1-d v runs aten.mv)."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass", "stale_nodes": "pass", "op_logger": "fail"}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl", (
    "        elif name == \"aten.convolution\":\n",
    "        elif name == \"aten.mv\":\n            count = 2 * args[0].shape[0] * args[0].shape[1]\n"
    "        elif name == \"aten.dot\":\n            count = 2 * args[0].shape[0]\n"
    "        elif name == \"aten.convolution\":\n"))}
