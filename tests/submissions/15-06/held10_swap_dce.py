"""Held-out round 10: swap_relu ends with eliminate_dead_code(), so a ReLU whose result forward never uses
(x.relu_() as a statement, an unused F.relu) is deleted instead of replaced: no call of new_fn is left for it.
The text says every ReLU is replaced by a call_function node calling new_fn on the ReLU's input."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "fail", "recording_backend": "pass"}
CELLS = {"swap_relu_impl": edited(
    "15-06", "swap_relu_impl",
    ("    gm.graph.lint()\n", "    gm.graph.eliminate_dead_code()\n    gm.graph.lint()\n"))}
