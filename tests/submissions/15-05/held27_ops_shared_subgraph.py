"""Held-out round 27: aten_ops walks the graphs recursively through `gm.children()` (the main graph, then each
GraphModule child, then its children) without remembering which graphs it has already counted. Exercise 4: "Count
the nodes of **every** graph in the program: the main graph and the subgraphs of higher-order operators (all
`fx.GraphModule`s among `ep.graph_module.modules()`)." `modules()` yields each graph once. Wrong on a program in which
one subgraph is a child of two graphs: a function marked `torch.compiler.nested_compile_region` called in both
branches of a `torch.cond` is exported as ONE `repeated_subgraph0` shared by `true_graph_0` and `false_graph_0`; this
walk counts its nodes twice."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "pass"}
CELLS = {"op_inventory_impl": edited(
    "15-05", "op_inventory_impl",
    ("    for gm in ep.graph_module.modules():\n"
     "        if not isinstance(gm, fx.GraphModule):\n"
     "            continue\n"
     "        for node in gm.graph.nodes:\n",
     "    def graphs(gm):\n"
     "        yield gm\n"
     "        for child in gm.children():\n"
     "            if isinstance(child, fx.GraphModule):\n"
     "                yield from graphs(child)\n"
     "\n"
     "    for gm in graphs(ep.graph_module):\n"
     "        for node in gm.graph.nodes:\n"))}
