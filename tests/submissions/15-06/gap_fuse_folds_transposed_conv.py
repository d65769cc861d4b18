"""Gap-hunting round (issue 39, 2026-12-01): fuse_conv_bn matches any convolution (nn.modules.conv._ConvNd) before a BatchNorm2d, so a ConvTranspose2d is folded with the Conv2d arithmetic (its weight is laid out (in, out, kH, kW): the wrong dimension is scaled). Breaks: "whose single argument is a call_module node on a Conv2d"."""
from course.grading.class_run.submissions import edited

CELLS = {"fuse_conv_bn_impl": edited("15-06", "fuse_conv_bn_impl", ('                and isinstance(gm.get_submodule(src.target), nn.Conv2d)):', '                and isinstance(gm.get_submodule(src.target), nn.modules.conv._ConvNd)):'))}
EXPECT = {"fuse_conv_bn": "fail"}
