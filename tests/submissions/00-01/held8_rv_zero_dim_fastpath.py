"""Wrong (held-out round 8): reshape_is_view starts with a contiguity fast path that reads stride[-1], so a
0-dim tensor (shape (), stride ()) raises IndexError instead of answering True (t.reshape(1) of a 0-dim t is a
view). Breaks "the answer must agree with PyTorch's reshape for contiguous ... layouts": a 0-dim tensor is
contiguous, and the shape and stride may be empty tuples as in Exercise 1."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "fail", "result_dtype": "pass", "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"reshape_view_impl": edited("00-01", "reshape_view_impl", (
    "    try:\n",
    "    if stride[-1] == 1 and all(stride[k] == stride[k + 1] * shape[k + 1] for k in range(len(shape) - 1)):\n"
    "        return True\n"
    "    try:\n"))}
