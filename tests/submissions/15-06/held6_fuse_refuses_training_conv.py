"""Wrong: "If model, or any BatchNorm2d inside it, is in training mode, raise a RuntimeError". This
fuse_conv_bn also raises when a Conv2d inside an eval-mode model is left in training mode, although a
conv's mode changes nothing it computes and the text names only the model and its BatchNorm2d modules."""
from course.grading.class_run.submissions import edited

EXPECT = {"fuse_conv_bn": "fail"}
CELLS = {"fuse_conv_bn_impl": edited("15-06", "fuse_conv_bn_impl",
                                     ("if isinstance(m, nn.BatchNorm2d)):", "if isinstance(m, (nn.Conv2d, nn.BatchNorm2d))):"))}
