"""Held-out round 12 (issue 39): fuse_conv_bn also requires the BatchNorm's output to have a single
user, so a valid pair whose BN output feeds two nodes is left unfolded. Breaks: "every Conv2d ->
BatchNorm2d pair where fusion is valid has been folded ... Leave a pair alone when the conv output has
other users" (only the conv output's users matter)."""
from course.grading.class_run.submissions import edited

CELLS = {"fuse_conv_bn_impl": edited("15-06", "fuse_conv_bn_impl",
                                     ("        if len(src.users) != 1:\n",
                                      "        if len(src.users) != 1 or len(node.users) != 1:\n"))}
EXPECT = {"fuse_conv_bn": "fail"}
