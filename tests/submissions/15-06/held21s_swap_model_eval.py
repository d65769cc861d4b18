"""Held-out round 21, second pass: swap_relu calls model.eval() before tracing (an inference-graph habit), so a
model given in training mode comes back in eval mode and is traced as in eval mode; the text says "trace model" and
"leave model unchanged"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "fail", "recording_backend": "pass"}
CELLS = {"swap_relu_impl": edited(
    "15-06", "swap_relu_impl",
    ("    gm = fx.symbolic_trace(model)\n", "    gm = fx.symbolic_trace(model.eval())\n"))}
