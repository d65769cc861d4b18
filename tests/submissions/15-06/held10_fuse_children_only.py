"""Held-out round 10: fuse_conv_bn looks for BatchNorm2d modules in training mode among model.children() only,
so a BatchNorm2d nested one level deeper (inside an nn.Sequential block) in training mode is fused instead of
making it raise; the text says: if model, or any BatchNorm2d inside it, is in training mode, raise."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("any(m.training for m in model.modules() if isinstance(m, nn.BatchNorm2d))",
     "any(m.training for m in model.children() if isinstance(m, nn.BatchNorm2d))"))}
