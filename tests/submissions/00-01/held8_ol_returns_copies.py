"""Wrong (held-out round 8): OpLogger returns a fresh copy of every tensor result "so logging never aliases",
so a view made inside the block (x[1:], x.t(), x.view(...)) no longer shares x's memory and a write through
it leaves x unchanged. Breaks "must return what the call would return" and "Run every call unchanged: the
block's results ... must be the same as without the mode"."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass", "stale_nodes": "pass", "op_logger": "fail"}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl", (
    "        return out\n",
    "        if isinstance(out, torch.Tensor) and func.overloadpacket not in (torch.ops.aten.detach,):\n"
    "            return out.clone()\n"
    "        return out\n"))}
