"""Gap-hunting round (issue 39, 2026-12-01): the training-mode check looks only at the BatchNorm2d modules, not at model.training: a model in training mode whose BatchNorms were put in eval mode is fused. Breaks: "If model, or any BatchNorm2d inside it, is in training mode, raise"."""
from course.grading.class_run.submissions import edited

CELLS = {"fuse_conv_bn_impl": edited("15-06", "fuse_conv_bn_impl", ('    if model.training or any(m.training for m in model.modules() if isinstance(m, nn.BatchNorm2d)):', '    if any(m.training for m in model.modules() if isinstance(m, nn.BatchNorm2d)):'))}
EXPECT = {"fuse_conv_bn": "fail"}
