"""Held-out round 18: the backend "prints" with gm.graph.print_tabular(), which without the tabulate package (not in
the course environment) prints only a note asking to install it, never the graph; the text says the backend
"prints the graph it received (any readable form: print(gm.graph), gm.print_readable(), print(gm.code))"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "fail"}
CELLS = {"recording_backend_impl": edited(
    "15-06", "recording_backend_impl",
    ("        print(gm.graph)\n", "        gm.graph.print_tabular()\n"))}
