"""Held-out round 18, second pass (not counted): swap_relu takes nn.ReLU6 modules for ReLUs too
(isinstance(module, (nn.ReLU, nn.ReLU6)): "ReLU6 is a clipped ReLU"); the text lists nn.ReLU6 among the things that
"look similar" and "must be left alone"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "fail", "recording_backend": "pass"}
CELLS = {"swap_relu_impl": edited(
    "15-06", "swap_relu_impl",
    ("isinstance(gm.get_submodule(node.target), nn.ReLU))", "isinstance(gm.get_submodule(node.target), "
     "(nn.ReLU, nn.ReLU6)))"))}
