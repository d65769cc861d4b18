"""Wrong (blind batch, issue #19, fourth round, graph):
graph_nodes keeps its seen set as a mutable default argument, so every call shares it.

Breaks "graph_nodes(t) returns a list of every node reachable from t.grad_fn" (and "neither function changes"
anything): the first call on a graph is right, but a second call on the same tensor finds every node already
seen and returns only t.grad_fn. The hidden check test_graph_left_usable now calls each function twice on the
same graph and judges the second answer like the first.
"""
from course.grading.class_run.submissions import edited

EXPECT = {'graph': 'fail', 'engine': 'pass', 'compress': 'pass', 'evaluate': 'pass', 'checkpoint': 'pass'}
CELLS = {"graph_impl": edited("00-02", "graph_impl",
    ("def graph_nodes(t):", "def graph_nodes(t, seen=set()):"),
    ("seen, out, stack = set(), [], [t.grad_fn]", "out, stack = [], [t.grad_fn]"))}
