"""Held-out round 23: graph_nodes marks the nodes it has visited in each node's own `metadata` dict instead of a
set of its own, and never clears the marks. The first call on a graph is right; a second call on the same tensor,
or a call on another tensor whose graph shares nodes with one already walked (a parameter's AccumulateGrad, a
shared trunk), skips every marked node. The text: "`graph_nodes(t)` returns a list of every node reachable from
`t.grad_fn`" and "Neither function runs backward or changes the graph"."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "fail"}
CELLS = {"graph_impl": edited(
    "00-02", "graph_impl",
    ("    seen, out, stack = set(), [], [t.grad_fn]\n"
     "    seen.add(t.grad_fn)\n",
     "    out, stack = [], [t.grad_fn]\n"
     "    t.grad_fn.metadata[\"visited\"] = True\n"),
    ("            if nxt is not None and nxt not in seen:\n"
     "                seen.add(nxt)\n",
     "            if nxt is not None and not nxt.metadata.get(\"visited\"):\n"
     "                nxt.metadata[\"visited\"] = True\n"))}
