"""Held-out round 29: fuse_conv_bn refuses a model in training mode only when the model holds a BatchNorm2d
("nothing to fold anyway"): a training-mode model without any BatchNorm2d is traced and returned. The task
says "If `model`, or any `BatchNorm2d` inside it, is in training mode, raise a `RuntimeError` that says fusion
needs eval mode". Goes wrong on: nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU()) in training mode (the default):
returns a GraphModule instead of raising."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("    if model.training or any(m.training for m in model.modules() if isinstance(m, nn.BatchNorm2d)):\n",
     "    bns = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]\n"
     "    if (model.training and bns) or any(m.training for m in bns):\n"))}
