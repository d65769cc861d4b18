"""Held-out round 15: fold_conv_bn casts BatchNorm's statistics to conv's dtype *before* the arithmetic ("keep one
dtype throughout"). For a float16 conv after a float32 BatchNorm whose running variance (or mean) is above float16's
largest value 65504, var + eps becomes inf, the scale 0, and the folded conv outputs beta alone (or nan), where
torch's fuse_conv_bn_eval computes in the wider dtype and casts once. Breaks: "parameters in the same dtype ... as
conv's weight (also when bn's dtype differs)" and "returns a new nn.Conv2d computing bn(conv(x))"."""
from course.grading.class_run.submissions import edited

EXPECT = {"fold_conv_bn": "fail"}
CELLS = {"fold_conv_bn_impl": edited(
    "15-06", "fold_conv_bn_impl",
    ("    scale = gamma * torch.rsqrt(bn.running_var + bn.eps)\n",
     "    gamma, beta = gamma.to(w.dtype), beta.to(w.dtype)  # one dtype throughout: conv's\n"
     "    mean, var = bn.running_mean.to(w.dtype), bn.running_var.to(w.dtype)\n"
     "    scale = gamma * torch.rsqrt(var + bn.eps)\n"),
    ("((b - bn.running_mean) * scale + beta)", "((b - mean) * scale + beta)"))}
