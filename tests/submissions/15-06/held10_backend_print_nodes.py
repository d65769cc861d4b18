"""Held-out round 10: the recording backend prints gm.graph.nodes, which shows only
"<torch.fx.graph._node_list object at 0x...>", not the graph; the text says the backend prints the graph it
received in a readable form (print(gm.graph), gm.print_readable(), print(gm.code))."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "fail"}
CELLS = {"recording_backend_impl": edited(
    "15-06", "recording_backend_impl", ("        print(gm.graph)\n", "        print(gm.graph.nodes)\n"))}
