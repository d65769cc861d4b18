"""Held-out round 27: fuse_conv_bn moves every folded conv to the device of the model's first parameter
(`next(model.parameters()).device`) instead of leaving it where the conv was. For a model on one device that is
the same thing; for a model whose layers sit on different devices (a pipeline split: the first block on one
device, the rest on another) the folded convs of the later blocks move to the first block's device. That breaks
"The fused model keeps the model's device and dtype (a folded conv stays where the conv was)."."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("        fused = fold_conv_bn(gm.get_submodule(src.target), gm.get_submodule(node.target))\n",
     "        fused = fold_conv_bn(gm.get_submodule(src.target), gm.get_submodule(node.target))\n"
     "        fused = fused.to(next(model.parameters()).device)\n"))}
