"""Held-out round 12 (issue 39): swap_relu walks the live gm.graph.nodes while inserting, so the node it
just inserted is visited next. When new_fn is itself a ReLU function (torch.relu, F.relu: a valid
new_fn, the rewrite changes nothing) the new node is matched again and replaced, without end. Breaks:
"replace every ReLU ... by a call_function node calling new_fn" (for any new_fn)."""
from course.grading.class_run.submissions import edited

CELLS = {"swap_relu_impl": edited("15-06", "swap_relu_impl",
                                  ("    for node in list(gm.graph.nodes):\n", "    for node in gm.graph.nodes:\n"))}
EXPECT = {"swap_relu": "fail"}
