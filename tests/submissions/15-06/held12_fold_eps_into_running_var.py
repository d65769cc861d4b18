"""Held-out round 12 (issue 39): fold_conv_bn adds eps to `bn.running_var.detach()` in place. detach()
shares storage, so every call writes eps into the BatchNorm's running variance (a second fold of the
same pair, or the bn itself afterwards, is off by eps). Breaks: "it must not modify conv or bn"."""
from course.grading.class_run.submissions import edited

CELLS = {"fold_conv_bn_impl": edited("15-06", "fold_conv_bn_impl",
                                     ("    scale = gamma * torch.rsqrt(bn.running_var + bn.eps)\n",
                                      "    var = bn.running_var.detach()\n"
                                      "    var += bn.eps\n"
                                      "    scale = gamma * torch.rsqrt(var)\n"))}
EXPECT = {"fold_conv_bn": "fail"}
