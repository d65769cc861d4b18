"""Held-out round 18, second pass (not counted): swap_relu recognises the module form by its class name,
type(module).__name__.startswith("ReLU"), which also takes nn.ReLU6 (LeakyReLU does not start so); the text says
"check the module's type, not its name" and lists nn.ReLU6 among the look-alikes that "must be left alone"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "fail", "recording_backend": "pass"}
CELLS = {"swap_relu_impl": edited(
    "15-06", "swap_relu_impl",
    ("(node.op == \"call_module\" and isinstance(gm.get_submodule(node.target), nn.ReLU))",
     "(node.op == \"call_module\" and type(gm.get_submodule(node.target)).__name__.startswith(\"ReLU\"))"))}
