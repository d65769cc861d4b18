"""Held-out round 15, written as wrong and judged not truly wrong (accepted): fold_conv_bn casts conv's weight and
bias to BatchNorm's dtype, does the arithmetic there and casts the result back to conv's dtype. For a float32 conv
after a float16/bfloat16 BatchNorm this rounds conv's weight to bn's precision, but torch's own fuse_conv_bn_eval
rounds the scale gamma/sqrt(var + eps) to bn's precision too, so both are off by errors of bn's precision and the
text ("parameters in the same dtype ... as conv's weight (also when bn's dtype differs)", "computing bn(conv(x))")
names no precision that tells them apart. Kept as an accepted variant: a check must not reject it."""
from course.grading.class_run.submissions import edited

EXPECT = {"fold_conv_bn": "pass"}
CELLS = {"fold_conv_bn_impl": edited(
    "15-06", "fold_conv_bn_impl",
    ("    w = conv.weight.detach()\n",
     "    w = conv.weight.detach().to(bn.running_var.dtype)  # do the arithmetic in bn's dtype\n"),
    ("    fused.weight = nn.Parameter((w * scale.reshape(-1, *([1] * (w.dim() - 1)))).to(w.dtype))\n"
     "    fused.bias = nn.Parameter(((b - bn.running_mean) * scale + beta).to(w.dtype))\n",
     "    fused.weight = nn.Parameter((w * scale.reshape(-1, *([1] * (w.dim() - 1)))).to(conv.weight.dtype))\n"
     "    fused.bias = nn.Parameter(((b.to(w.dtype) - bn.running_mean) * scale + beta).to(conv.weight.dtype))\n"))}
