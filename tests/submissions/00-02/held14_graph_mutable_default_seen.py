"""Held-out round 14: graph_nodes keeps its seen set as a mutable default argument, so it is shared by every
call: a second call on the same tensor returns [] (and a graph sharing a leaf with an earlier one loses that
leaf's AccumulateGrad). The text: "returns a list of every node reachable from t.grad_fn ... t.grad_fn itself
included"."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "fail"}
CELLS = {"graph_impl": edited(
    "00-02", "graph_impl",
    ("def graph_nodes(t):", "def graph_nodes(t, seen=set()):"),
    ("    seen, out, stack = set(), [], [t.grad_fn]\n    seen.add(t.grad_fn)\n",
     "    out, stack = [], []\n    if t.grad_fn not in seen:\n        seen.add(t.grad_fn)\n        stack.append(t.grad_fn)\n"))}
