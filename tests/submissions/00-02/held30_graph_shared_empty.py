"""Wrong (held-out round 30): for a tensor with no grad_fn, graph_nodes and topo_order return one
module-level list object, the same one on every call; a caller that appends to the result it got (or
extends it) changes what every later call returns. Violates "A tensor with no grad_fn (a leaf, or a result
computed without a graph) gives an empty list from both" (a list per call, as for any other tensor).
Goes wrong on: r = graph_nodes(torch.randn(3)); r.append(0); graph_nodes(torch.randn(2)) is [0]
(topo_order likewise), not []."""
from course.grading.class_run.submissions import edited

EXPECT = {'graph': 'fail'}
CELLS = {"graph_impl": "_NO_NODES = []\n\n\n" + edited("00-02", "graph_impl",
    ("    if t.grad_fn is None:\n        return []\n    seen, out, stack",
     "    if t.grad_fn is None:\n        return _NO_NODES\n    seen, out, stack"),
    ("    if t.grad_fn is None:\n        return []\n    post, done",
     "    if t.grad_fn is None:\n        return _NO_NODES\n    post, done"),
)}
