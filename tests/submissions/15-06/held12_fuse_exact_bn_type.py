"""Held-out round 12 (issue 39): fuse_conv_bn's training-mode check looks for modules whose type *is*
nn.BatchNorm2d, so a subclass of BatchNorm2d left in training mode is not noticed and its pair is folded
with running statistics it does not use. Breaks: "If model, or any BatchNorm2d inside it, is in training
mode, raise a RuntimeError" (an instance of a subclass is a BatchNorm2d)."""
from course.grading.class_run.submissions import edited

CELLS = {"fuse_conv_bn_impl": edited("15-06", "fuse_conv_bn_impl",
                                     ("m.training for m in model.modules() if isinstance(m, nn.BatchNorm2d)",
                                      "m.training for m in model.modules() if type(m) is nn.BatchNorm2d"))}
EXPECT = {"fuse_conv_bn": "fail"}
