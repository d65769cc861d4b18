"""Held-out round 18: fuse_conv_bn registers each folded conv under a new top-level name ("stem_0_fused") and points
the conv node at it, leaving the old conv under its name unused; the outputs are right, but the text asks that "the
fused conv keep[s] the original conv's qualified name"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("""        parent_name, _, leaf = src.target.rpartition(".")
        setattr(gm.get_submodule(parent_name) if parent_name else gm, leaf, fused)
""",
     """        new_name = src.target.replace(".", "_") + "_fused"
        gm.add_submodule(new_name, fused)
        src.target = new_name
"""),
    ("    gm.delete_all_unused_submodules()\n", ""))}
