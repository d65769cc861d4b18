"""Held-out round 18: fold_conv_bn computes BatchNorm's scale as sqrt(gamma**2 / (var + eps)), so a negative gamma
loses its sign; the text's formula is s_c = gamma_c / sqrt(sigma_c**2 + eps) (gamma is a learned weight of any
sign) and the folded conv must compute bn(conv(x))."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "fail", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fold_conv_bn_impl": edited(
    "15-06", "fold_conv_bn_impl",
    ("scale = gamma * torch.rsqrt(bn.running_var + bn.eps)",
     "scale = torch.sqrt(gamma * gamma / (bn.running_var + bn.eps))"))}
