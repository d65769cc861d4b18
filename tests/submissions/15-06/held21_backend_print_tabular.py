"""Held-out round 21: the backend "prints" the graph with gm.graph.print_tabular(), which needs the tabulate
package and, without it, prints only a notice that tabulate is missing; the text says backend "prints the graph it
received (any readable form)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "fail"}
CELLS = {"recording_backend_impl": edited(
    "15-06", "recording_backend_impl",
    ("        print(gm.graph)\n", "        gm.graph.print_tabular()\n"))}
