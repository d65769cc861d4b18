"""Held-out round 27: fold_conv_bn starts with `conv.eval(); bn.eval()` "to be safe" (torch's own
fuse_conv_bn_eval insists on eval modules). `bn` is given in eval mode, so that call changes nothing, but `conv`
may be in training mode (a Conv2d computes the same in both modes; only the BatchNorm's mode matters), and then
the call switches the caller's conv to eval mode. That breaks "it must not modify `conv` or `bn`": the module's
mode is part of it (a later `model.train()` step would not expect one of its convs to have been switched)."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "fail", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fold_conv_bn_impl": edited(
    "15-06", "fold_conv_bn_impl",
    ("    fused = copy.deepcopy(conv)\n",
     "    conv.eval()\n    bn.eval()\n    fused = copy.deepcopy(conv)\n"))}
