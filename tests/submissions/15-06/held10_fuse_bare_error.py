"""Held-out round 10: fuse_conv_bn raises a bare RuntimeError (no message) for a model or BatchNorm2d in training
mode; the text says to raise a RuntimeError "that says fusion needs eval mode"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("raise RuntimeError(\"fuse_conv_bn: Conv+BN fusion is only valid in eval mode; call model.eval() first\")",
     "raise RuntimeError"))}
