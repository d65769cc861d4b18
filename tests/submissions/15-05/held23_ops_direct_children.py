"""Held-out round 23: aten_ops walks the main graph and its direct children (ep.graph_module.children()), which holds
the branches of a top-level torch.cond but not a cond nested inside a branch: the nested cond's own subgraphs
(true_graph_0.true_graph_0, ...) are not counted. Exercise 4's text: "Count the nodes of **every** graph in the
program ... (all `fx.GraphModule`s among `ep.graph_module.modules()`)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "pass"}
CELLS = {"op_inventory_impl": edited(
    "15-05", "op_inventory_impl",
    ("    for gm in ep.graph_module.modules():\n", "    for gm in [ep.graph_module, *ep.graph_module.children()]:\n"))}
