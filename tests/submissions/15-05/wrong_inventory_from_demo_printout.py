"""op_inventory: aten_ops is shaped by what the demo's printout showed. It visits the root graph and only the
submodules whose names contain '_graph_' (cond's true_graph_0/false_graph_0), so the body of another higher-order
operator (a no_grad block's wrap_with_set_grad_enabled, held in submod_1) is never counted; and it leaves out
only operator.getitem, so the SymInt arithmetic of a program exported with a dynamic batch (operator.mul) is
counted as an operator. Breaks 'Count a node when its target is a torch._ops.OpOverload or a
torch._ops.HigherOrderOperator, and nothing else' and 'Count the nodes of every graph in the program'."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "pass"}
CELLS = {"op_inventory_impl": edited("15-05", "op_inventory_impl",
    ("    for gm in ep.graph_module.modules():\n        if not isinstance(gm, fx.GraphModule):\n",
     "    for name, gm in ep.graph_module.named_modules():\n        if name and \"_graph_\" not in name:\n"),
    ("isinstance(node.target, (torch._ops.OpOverload,\n"
     "                                                                       torch._ops.HigherOrderOperator))",
     "str(node.target) != \"<built-in function getitem>\""))}
