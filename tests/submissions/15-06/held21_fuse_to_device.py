"""Held-out round 21: fuse_conv_bn moves each folded conv to the notebook's DEVICE, so a model on another
device than DEVICE comes back with its folded convs elsewhere than its other layers and the fused model no longer runs
on the model's inputs; the text says fold_conv_bn keeps conv's device and fuse_conv_bn folds "(use your fold_conv_bn)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("        setattr(gm.get_submodule(parent_name) if parent_name else gm, leaf, fused)\n",
     "        setattr(gm.get_submodule(parent_name) if parent_name else gm, leaf, fused.to(DEVICE))\n"))}
