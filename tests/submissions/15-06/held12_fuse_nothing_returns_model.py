"""Held-out round 12 (issue 39): when no pair can be folded, fuse_conv_bn hands back the model it was
given (not a GraphModule, and the caller's own object). Breaks: "Write fuse_conv_bn(model) returning a
new fx.GraphModule"."""
from course.grading.class_run.submissions import edited

CELLS = {"fuse_conv_bn_impl": edited("15-06", "fuse_conv_bn_impl",
                                     ("    module_calls = Counter", "    folded_any = False\n    module_calls = Counter"),
                                     ("        node.replace_all_uses_with(src)\n",
                                      "        node.replace_all_uses_with(src)\n        folded_any = True\n"),
                                     ("    gm.graph.lint()\n",
                                      "    if not folded_any:\n"
                                      "        return model  # nothing to fold: the model as it is\n"
                                      "    gm.graph.lint()\n"))}
EXPECT = {"fuse_conv_bn": "fail"}
