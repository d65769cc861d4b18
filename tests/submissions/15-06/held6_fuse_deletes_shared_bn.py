"""Wrong: "every Conv2d → BatchNorm2d pair where fusion is valid has been folded ...; leave a BatchNorm alone
when its input is not a conv". Right after folding a pair, this fuse_conv_bn deletes the BatchNorm's
submodule, so a BatchNorm module that forward calls twice (after two convs, or once after a conv and once
after something else) is gone before its other call is handled: the pass raises, or the graph no longer
lints."""
from course.grading.class_run.submissions import edited

EXPECT = {"fuse_conv_bn": "fail"}
CELLS = {"fuse_conv_bn_impl": edited("15-06", "fuse_conv_bn_impl",
                                     ("        gm.graph.erase_node(node)\n",
                                      "        gm.graph.erase_node(node)\n        gm.delete_submodule(node.target)\n"))}
