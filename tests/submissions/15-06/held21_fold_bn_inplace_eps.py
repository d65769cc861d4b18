"""Held-out round 21: fold_conv_bn adds eps to bn.running_var.detach() in place; detach() shares the
buffer, so every fold raises bn's running variance by eps; the text says fold_conv_bn "must not modify conv or bn"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "fail", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fold_conv_bn_impl": edited(
    "15-06", "fold_conv_bn_impl",
    ("    scale = gamma * torch.rsqrt(bn.running_var + bn.eps)\n",
     "    var = bn.running_var.detach()\n    var += bn.eps  # detach() shares bn's buffer: this changes bn\n    scale = gamma * torch.rsqrt(var)\n"))}
