"""Held-out round 24: fold_conv_bn first converts conv's weight and bias to bn's dtype, does the arithmetic there
and casts the result back to conv's dtype at the end (as held15_fold_in_bn_dtype, with the bias cast first). That is
right when bn is at least as wide as conv, but when bn is narrower it puts conv's own values through bn's range: a
float32 conv after a float16 BatchNorm with a weight or bias beyond float16's range (7e4 > 65504) gets inf in the
folded conv, where torch's fuse_conv_bn_eval (conv's weight, in conv's dtype, times the scale) is finite. It breaks
"parameters in the same dtype ... as `conv`'s weight (also when `bn`'s dtype differs)" with "computing
`bn(conv(x))`". (For values inside bn's range the error is of the size of the scale's own rounding in bn's dtype,
which torch's fold makes too: no check tells those apart, as round 15 found.)"""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "fail", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fold_conv_bn_impl": edited(
    "15-06", "fold_conv_bn_impl",
    ("    w = conv.weight.detach()\n",
     "    w = conv.weight.detach().to(bn.running_var.dtype)  # do the arithmetic in bn's dtype\n"),
    ("    b = conv.bias.detach() if conv.bias is not None else",
     "    b = conv.bias.detach().to(w.dtype) if conv.bias is not None else"),
    ("    fused.weight = nn.Parameter((w * scale.reshape(-1, *([1] * (w.dim() - 1)))).to(w.dtype))\n"
     "    fused.bias = nn.Parameter(((b - bn.running_mean) * scale + beta).to(w.dtype))\n",
     "    fused.weight = nn.Parameter((w * scale.reshape(-1, *([1] * (w.dim() - 1)))).to(conv.weight.dtype))\n"
     "    fused.bias = nn.Parameter(((b - bn.running_mean) * scale + beta).to(conv.weight.dtype))\n"))}
