"""Gap-hunting round (issue 39, 2026-12-01): fuse_conv_bn raises RuntimeError("cannot fuse this model"), which does not say that fusion needs eval mode. Breaks: "raise a RuntimeError that says fusion needs eval mode"."""
from course.grading.class_run.submissions import edited

CELLS = {"fuse_conv_bn_impl": edited("15-06", "fuse_conv_bn_impl", ('        raise RuntimeError("fuse_conv_bn: Conv+BN fusion is only valid in eval mode; call model.eval() first")', '        raise RuntimeError("fuse_conv_bn: cannot fuse this model")'))}
EXPECT = {"fuse_conv_bn": "fail"}
