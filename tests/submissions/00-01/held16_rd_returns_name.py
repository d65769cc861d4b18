"""Round 16 contract walk: result_dtype builds its table from dtype names and returns the name
("torch.float32"), a string, not the torch.dtype the text asks for ("Return a torch.dtype"); the probe
used to turn a dtype into its str before comparing, so a string with the same text passed."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "fail",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"result_dtype_impl": edited("00-01", "result_dtype_impl", ("    return result\n", "    return str(result)\n"))}
