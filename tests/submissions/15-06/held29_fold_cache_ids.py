"""Held-out round 29: fold_conv_bn memoises its result by `(id(conv), id(bn))` (keeping both modules alive, so
ids are never reused) and hands back a deep copy of the cached folded conv on a later call with the same pair.
Each result is a new nn.Conv2d, but after `bn`'s running statistics (or `conv`'s weight) change in place, the
second call returns the conv folded from the OLD statistics. That breaks "returns a new `nn.Conv2d` computing
`bn(conv(x))` for an eval-mode `bn`": it computes bn_before(conv_before(x)). Goes wrong on: fold once, then
`bn.running_mean.add_(1)` (or `bn.running_var.mul_(4)`), fold again and compare with bn(conv(x))."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "fail", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fold_conv_bn_impl": edited(
    "15-06", "fold_conv_bn_impl",
    ("def fold_conv_bn(", "_FOLD_CACHE = {}\n\n\ndef fold_conv_bn("),
    ("    fused = copy.deepcopy(conv)\n",
     "    hit = _FOLD_CACHE.get((id(conv), id(bn)))\n"
     "    if hit is not None:\n"
     "        return copy.deepcopy(hit[2])\n"
     "    fused = copy.deepcopy(conv)\n"),
    ("    return fused\n",
     "    _FOLD_CACHE[(id(conv), id(bn))] = (conv, bn, fused)\n    return copy.deepcopy(fused)\n"))}
