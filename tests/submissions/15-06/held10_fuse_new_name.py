"""Held-out round 10: fuse_conv_bn registers each folded conv under a new name ("<conv name>_folded", dots turned
into underscores) with add_submodule and points the conv node at it, leaving the old conv where it was; outputs
are the same, but the text says the fused conv keeps the original conv's qualified name."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("        parent_name, _, leaf = src.target.rpartition(\".\")\n"
     "        setattr(gm.get_submodule(parent_name) if parent_name else gm, leaf, fused)\n",
     "        new_name = src.target.replace(\".\", \"_\") + \"_folded\"\n"
     "        gm.add_submodule(new_name, fused)\n"
     "        src.target = new_name\n"),
    ("    gm.delete_all_unused_submodules()\n", ""))}
