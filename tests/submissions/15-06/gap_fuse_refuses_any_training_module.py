"""Gap-hunting round (issue 39, 2026-12-01): the training-mode check raises when ANY submodule is in training mode (a Dropout left in train mode in an eval model too), where the text says to fuse. Breaks: "If model, or any BatchNorm2d inside it, is in training mode, raise" (only those)."""
from course.grading.class_run.submissions import edited

CELLS = {"fuse_conv_bn_impl": edited("15-06", "fuse_conv_bn_impl", ('    if model.training or any(m.training for m in model.modules() if isinstance(m, nn.BatchNorm2d)):', '    if any(m.training for m in model.modules()):'))}
EXPECT = {"fuse_conv_bn": "fail"}
