"""Held-out round 9, written as wrong, judged correct: graph_nodes and topo_order walk the graph with a
recursive depth-first visit, as the Scalar example does, so a graph a few thousand operations deep hits
Python's recursion limit. The text promises nothing about depth and the notebook's own example recurses
(the third blind round left the same answer as not wrong), so it is kept as a correct example."""

EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"graph_impl": '''
def _visit(node, seen, post):
    if node is None or node in seen:
        return
    seen.add(node)
    for nxt, _ in node.next_functions:
        _visit(nxt, seen, post)
    post.append(node)


def graph_nodes(t):
    """Every autograd node reachable from t.grad_fn, each once."""
    post = []
    _visit(t.grad_fn, set(), post)
    return post


def topo_order(t):
    """The nodes of graph_nodes(t), each before the nodes it feeds gradient to."""
    post = []
    _visit(t.grad_fn, set(), post)
    return post[::-1]
'''}
