"""Held-out round 24, second pass (not counted): fuse_conv_bn traces the model itself (no copy.deepcopy: the folded
convs are new modules set on the GraphModule, so the model's conv weights are never edited) and ends with
gm.requires_grad_(False) ("the fused model is for inference"). symbolic_trace shares the model's leaf modules with
the GraphModule, so every module the fusion leaves in place (a conv with two users, a BatchNorm after a ReLU, the
BatchNorm after a conv called twice) has its parameters frozen in the caller's model too. It breaks "Do not modify
`model`." for any model with a module that is not folded; its outputs and submodule types are unchanged, which was
all the fuse checks compared."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("    gm = fx.symbolic_trace(copy.deepcopy(model))\n", "    gm = fx.symbolic_trace(model)\n"),
    ("    gm.delete_all_unused_submodules()\n",
     "    gm.delete_all_unused_submodules()\n    gm.requires_grad_(False)  # the fused model is for inference\n"))}
