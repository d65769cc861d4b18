"""Held-out round 29: fold_conv_bn uses the default epsilon 1e-5 instead of the BatchNorm's own `bn.eps`
(`torch.rsqrt(bn.running_var + 1e-5)`). The task's formula is s_c = gamma_c / sqrt(sigma_c^2 + eps) with
"`eps` epsilon" of the given BatchNorm, and the result must compute `bn(conv(x))`. Goes wrong on a BatchNorm2d
built with another eps, e.g. `nn.BatchNorm2d(4, eps=0.1)` with running_var near 0.1: the scale is off by about
a factor sqrt(2)."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "fail", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fold_conv_bn_impl": edited(
    "15-06", "fold_conv_bn_impl",
    ("torch.rsqrt(bn.running_var + bn.eps)", "torch.rsqrt(bn.running_var + 1e-5)"))}
