"""Held-out round 24: fold_conv_bn divides by sqrt(running_var) + eps instead of sqrt(running_var + eps), a
common slip when the formula is written from memory. It breaks "returns a **new** `nn.Conv2d` computing
`bn(conv(x))` for an eval-mode `bn`" (the scale is s_c = gamma_c / sqrt(sigma_c^2 + eps)): for a channel whose
running variance is 0 (a dead channel after pruning, or a BN that never saw data in that channel) the scale is
gamma/eps = 1e5 instead of gamma/sqrt(eps) = 316; for a running variance near 1 the error is only about eps/2
relative, below a float32 tolerance."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "fail", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fold_conv_bn_impl": edited(
    "15-06", "fold_conv_bn_impl",
    ("    scale = gamma * torch.rsqrt(bn.running_var + bn.eps)\n",
     "    scale = gamma / (bn.running_var.sqrt() + bn.eps)\n"))}
