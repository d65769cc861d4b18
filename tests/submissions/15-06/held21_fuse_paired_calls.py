"""Held-out round 21: fuse_conv_bn counts a conv module's calls only among the BatchNorms' inputs, so a conv
called twice, once before a BatchNorm and once not, is folded and its other call changes; the text says to leave a
pair alone "when forward calls the same conv module more than once"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("    module_calls = Counter(n.target for n in gm.graph.nodes if n.op == \"call_module\")\n",
     "    module_calls = Counter(n.args[0].target for n in gm.graph.nodes\n"
     "                           if n.op == \"call_module\" and isinstance(gm.get_submodule(n.target), nn.BatchNorm2d)\n"
     "                           and isinstance(n.args[0], fx.Node) and n.args[0].op == \"call_module\")\n"))}
