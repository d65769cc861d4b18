"""Held-out round 29: the recording backend prints the LAST RECORDED graph (`graphs[-1]`, or `gm` when the list
is still empty) before appending `gm`, so from the second captured graph on it prints the previous graph
instead of the one it received. Every graph is still recorded in order and computed right. The task says
"`backend(gm, example_inputs)` prints the graph it received". Goes wrong on any function with a graph break
(with_a_break: the second piece, `tanh` + `add`, is never printed; the first piece is printed twice)."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "fail"}
CELLS = {"recording_backend_impl": edited(
    "15-06", "recording_backend_impl",
    ("        print(gm.graph)\n", "        print((graphs[-1] if graphs else gm).graph)\n"))}
