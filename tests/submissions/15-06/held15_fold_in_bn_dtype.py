"""Held-out round 15, written as wrong and first judged not truly wrong (accepted); judged wrong in round 24:
fold_conv_bn casts conv's weight and bias to BatchNorm's dtype, does the arithmetic there and casts the result back
to conv's dtype. For values inside bn's range this only costs bn's precision, which torch's own fuse_conv_bn_eval
also pays (it rounds the scale gamma/sqrt(var + eps) to bn's dtype), and no precision in the text tells them apart.
But a float32 conv's values need not fit a float16 bn's range: a weight or bias beyond 65504 becomes inf, where the
fold (and torch's) is finite. It breaks "parameters in the same dtype ... as conv's weight (also when bn's dtype
differs)" with "computing bn(conv(x))"; caught by test_float32_conv_after_narrower_float16_bn."""
from course.grading.class_run.submissions import edited

EXPECT = {"fold_conv_bn": "fail"}
CELLS = {"fold_conv_bn_impl": edited(
    "15-06", "fold_conv_bn_impl",
    ("    w = conv.weight.detach()\n",
     "    w = conv.weight.detach().to(bn.running_var.dtype)  # do the arithmetic in bn's dtype\n"),
    ("    fused.weight = nn.Parameter((w * scale.reshape(-1, *([1] * (w.dim() - 1)))).to(w.dtype))\n"
     "    fused.bias = nn.Parameter(((b - bn.running_mean) * scale + beta).to(w.dtype))\n",
     "    fused.weight = nn.Parameter((w * scale.reshape(-1, *([1] * (w.dim() - 1)))).to(conv.weight.dtype))\n"
     "    fused.bias = nn.Parameter(((b.to(w.dtype) - bn.running_mean) * scale + beta).to(conv.weight.dtype))\n"))}
