"""Held-out round 15: fuse_conv_bn puts the folded conv back with the notebook's one-level recipe: for a dotted
name it sets the last part on gm's *first-level* child (getattr(gm, parts[0])). Right for "stem.0" and for flat
names; for a conv nested two levels deep ("block.seq.0") it adds a stray child to "block", leaves block.seq.0
unfolded and still erases the BatchNorm, so the output loses the normalisation. Breaks: "the fused conv keeping the
original conv's qualified name" and the fused model computing what the model computes."""
from course.grading.class_run.submissions import edited

EXPECT = {"fuse_conv_bn": "fail"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("        parent_name, _, leaf = src.target.rpartition(\".\")\n"
     "        setattr(gm.get_submodule(parent_name) if parent_name else gm, leaf, fused)\n",
     "        parts = src.target.split(\".\")  # \"stem.0\": attribute \"0\" of gm.stem\n"
     "        parent = gm if len(parts) == 1 else getattr(gm, parts[0])\n"
     "        setattr(parent, parts[-1], fused)\n"))}
