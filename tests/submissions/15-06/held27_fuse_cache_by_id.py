"""Held-out round 27: fuse_conv_bn memoises its result per model object (`id(model)`), returning the same
GraphModule when it is called again on the same model. After the model's weights or running statistics change
(another training step, then fusing again for deployment) the cached GraphModule still holds the old folded
weights. That breaks "returning a **new** `fx.GraphModule` in which every `Conv2d → BatchNorm2d` pair ... has
been folded" (the folded convs must compute `bn(conv(x))` of the model as it is when fuse_conv_bn is called)."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("def fuse_conv_bn(model: nn.Module) -> fx.GraphModule:\n",
     "_FUSED = {}\n\n\ndef fuse_conv_bn(model: nn.Module) -> fx.GraphModule:\n"),
    ("    gm = fx.symbolic_trace(copy.deepcopy(model))\n",
     "    if id(model) in _FUSED:\n        return _FUSED[id(model)]\n"
     "    gm = fx.symbolic_trace(copy.deepcopy(model))\n"),
    ("    gm.delete_all_unused_submodules()\n    return gm\n",
     "    gm.delete_all_unused_submodules()\n    _FUSED[id(model)] = gm\n    return gm\n"))}
