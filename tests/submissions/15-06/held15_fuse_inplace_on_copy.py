"""Held-out round 15: fuse_conv_bn traces a deepcopy of the model (so the caller's model is safe) and then folds
by copying the folded weight and bias *into* the copied conv in place, counting calls per target as the reference
does. deepcopy keeps sharing, so a conv module registered under two names (self.a and self.b the same object, each
called once) or two convs sharing one weight Parameter (tied weights) get the folded weights on their other call
too: the fused model no longer computes what the model computes. Breaks: "Leave a pair alone when ... forward calls
the same conv module more than once" and section 3's "the folded conv replaces the module, so it would change its
other calls too" (replace modules; do not edit their weights in place)."""
from course.grading.class_run.submissions import edited

EXPECT = {"fuse_conv_bn": "fail"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("        parent_name, _, leaf = src.target.rpartition(\".\")\n"
     "        setattr(gm.get_submodule(parent_name) if parent_name else gm, leaf, fused)\n",
     "        conv = gm.get_submodule(src.target)  # the deep copy's conv: safe to edit in place\n"
     "        with torch.no_grad():\n"
     "            conv.weight.copy_(fused.weight)\n"
     "            if conv.bias is None:\n"
     "                conv.bias = fused.bias\n"
     "            else:\n"
     "                conv.bias.copy_(fused.bias)\n"))}
