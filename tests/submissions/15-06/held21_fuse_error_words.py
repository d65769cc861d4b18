"""Held-out round 21: fuse_conv_bn raises a RuntimeError whose words say nothing of eval mode
("this model cannot be fused"); the text says to "raise a RuntimeError that says fusion needs eval mode"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("\"fuse_conv_bn: Conv+BN fusion is only valid in eval mode; call model.eval() first\"",
     "\"fuse_conv_bn: this model cannot be fused\""))}
