"""Held-out round 9: graph_nodes and topo_order walk the graph with a recursive depth-first visit, as the
Scalar example does, so a tensor whose graph is a long chain (an unrolled recurrence of a few thousand
steps) hits Python's recursion limit and raises instead of returning the nodes; the text asks for "every
node reachable from t.grad_fn" of any tensor t, with no bound on the graph's depth."""

EXPECT = {"graph": "fail", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
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
