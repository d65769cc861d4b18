"""Held-out round 21: fuse_conv_bn registers the folded conv under a new flat name ("stem_0_fused") and
points the node at it; the outputs are right, but the text says "the fused conv keeping the original conv's qualified
name"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("        setattr(gm.get_submodule(parent_name) if parent_name else gm, leaf, fused)\n",
     "        new_name = src.target.replace(\".\", \"_\") + \"_fused\"\n"
     "        gm.add_submodule(new_name, fused)\n"
     "        src.target = new_name\n"))}
