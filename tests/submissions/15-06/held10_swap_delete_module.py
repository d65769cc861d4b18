"""Held-out round 10: swap_relu deletes an nn.ReLU submodule as soon as it has replaced its call, so a ReLU module
that forward calls twice (one self.act used after several layers) makes the second lookup raise AttributeError;
the text says every ReLU, in all four forms, is replaced and the GraphModule runs."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "fail", "recording_backend": "pass"}
CELLS = {"swap_relu_impl": edited(
    "15-06", "swap_relu_impl",
    ("        gm.graph.erase_node(node)\n",
     "        gm.graph.erase_node(node)\n"
     "        if node.op == \"call_module\":\n"
     "            gm.delete_submodule(node.target)\n"))}
