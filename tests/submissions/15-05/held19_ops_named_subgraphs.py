"""Held-out round 19: aten_ops walks the main graph and, recursively, the submodules named true_graph_0 and
false_graph_0 (the names the notebook prints), not every fx.GraphModule among ep.graph_module.modules(). A nested cond
is counted; a program with two torch.cond calls side by side (true_graph_1, false_graph_1) loses the second one's
branches. Exercise 4's text: "Count the nodes of **every** graph in the program ... (all fx.GraphModules among
ep.graph_module.modules())"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "pass"}
CELLS = {"op_inventory_impl": edited(
    "15-05", "op_inventory_impl",
    ("""    for gm in ep.graph_module.modules():
        if not isinstance(gm, fx.GraphModule):
            continue
        for node in gm.graph.nodes:
            if node.op == "call_function" and isinstance(node.target, (torch._ops.OpOverload,
                                                                       torch._ops.HigherOrderOperator)):
                counts[str(node.target)] += 1
""",
     """
    def visit(gm):
        for node in gm.graph.nodes:
            if node.op == "call_function" and isinstance(node.target, (torch._ops.OpOverload,
                                                                       torch._ops.HigherOrderOperator)):
                counts[str(node.target)] += 1
        for name in ("true_graph_0", "false_graph_0"):  # torch.cond's two branches
            if hasattr(gm, name):
                visit(getattr(gm, name))

    visit(ep.graph_module)
"""))}
