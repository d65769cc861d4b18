"""Held-out round 10: insert_observers tidies the graph with eliminate_dead_code() before lint, which drops a
module call whose result forward never uses together with its observer, and drops in-place method calls whose
result is unused (x.relu_()), changing what the model computes. The text says a fresh observer goes right after
every call_module node of an op_types module, and the GraphModule computes exactly what model computes."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "fail",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"insert_observers_impl": edited(
    "15-06", "insert_observers_impl",
    ("    gm.graph.lint()\n", "    gm.graph.eliminate_dead_code()\n    gm.graph.lint()\n"))}
