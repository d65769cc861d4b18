"""Held-out round 27: fuse_conv_bn "cleans up" the traced graph with `gm.graph.eliminate_dead_code()` before
looking for pairs. FX's dead-code elimination drops a node whose result is unused even when it is an in-place
method such as `y.relu_()`, so for `y = self.bn(self.conv(x)); y.relu_(); return y` the fused model returns the
BatchNorm output without the ReLU. That breaks the task's "returning a new `fx.GraphModule` in which every
`Conv2d → BatchNorm2d` pair where fusion is valid has been folded" (folding replaces a pair by one conv
computing the same thing; nothing else of the model may change)."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("    gm = fx.symbolic_trace(copy.deepcopy(model))\n",
     "    gm = fx.symbolic_trace(copy.deepcopy(model))\n    gm.graph.eliminate_dead_code()\n"))}
