"""Held-out round 18: fuse_conv_bn folds each pair with torch.nn.utils.fusion.fuse_conv_bn_eval instead of the
notebook's fold_conv_bn; the text says "(use your fold_conv_bn)" (the exercise is the pass around the arithmetic
written in exercise 2)."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("fused = fold_conv_bn(gm.get_submodule(src.target), gm.get_submodule(node.target))",
     "fused = torch.nn.utils.fusion.fuse_conv_bn_eval(gm.get_submodule(src.target), "
     "gm.get_submodule(node.target))"))}
