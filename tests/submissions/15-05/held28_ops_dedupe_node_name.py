"""Held-out round 28: aten_ops collects the call_function nodes of all graphs into a dict keyed by `node.name` (to
"count each node once") and counts their targets. Exercise 4: "Count the nodes of **every** graph in the program: the
main graph and the subgraphs of higher-order operators". Node names are unique within one graph only: wrong on a
program where a subgraph and the main graph (or the two branches of a `cond`) call the same operator, e.g. both
branches computing `t.clone()` or `relu` (nodes named `clone`, `relu` in each graph): the count is 1 instead of 2."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "pass"}
CELLS = {"op_inventory_impl": edited(
    "15-05", "op_inventory_impl",
    ("    counts = Counter()\n"
     "    for gm in ep.graph_module.modules():\n"
     "        if not isinstance(gm, fx.GraphModule):\n"
     "            continue\n"
     "        for node in gm.graph.nodes:\n"
     "            if node.op == \"call_function\" and isinstance(node.target, (torch._ops.OpOverload,\n"
     "                                                                       torch._ops.HigherOrderOperator)):\n"
     "                counts[str(node.target)] += 1\n"
     "    return dict(counts)\n",
     "    nodes = {}\n"
     "    for gm in ep.graph_module.modules():\n"
     "        if not isinstance(gm, fx.GraphModule):\n"
     "            continue\n"
     "        for node in gm.graph.nodes:\n"
     "            if node.op == \"call_function\" and isinstance(node.target, (torch._ops.OpOverload,\n"
     "                                                                       torch._ops.HigherOrderOperator)):\n"
     "                nodes[node.name] = node\n"
     "    return dict(Counter(str(node.target) for node in nodes.values()))\n"))}
