"""Held-out round 23: both functions memoize their answer per tensor in a module-level dict (the tensor is the
key, so it stays alive and its id is never reused). A node's inputs never change, but a tensor's `grad_fn` does:
an in-place operation on a non-leaf (`y.mul_(2)`) gives `y` a new node, and the cached list is the old graph.
The text: "`graph_nodes(t)` returns a list of every node reachable from `t.grad_fn`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "fail"}
CELLS = {"graph_impl": edited(
    "00-02", "graph_impl",
    ("def graph_nodes(t):\n",
     "_memo = {}\n\n\n"
     "def graph_nodes(t):\n"
     "    if ('g', t) not in _memo:\n"
     "        _memo[('g', t)] = _graph_nodes(t)\n"
     "    return list(_memo[('g', t)])\n\n\n"
     "def _graph_nodes(t):\n"),
    ("def topo_order(t):\n",
     "def topo_order(t):\n"
     "    if ('t', t) not in _memo:\n"
     "        _memo[('t', t)] = _topo_order(t)\n"
     "    return list(_memo[('t', t)])\n\n\n"
     "def _topo_order(t):\n"))}
