"""Held-out round 9, written as wrong, judged correct then: graph_nodes and topo_order walk the graph with a
recursive depth-first visit, as the Scalar example does, so a graph a few thousand operations deep hits
Python's recursion limit. Round 9 kept it correct (the text promised nothing about depth and the notebook's own
example recurses). Since round 27 it is wrong: both functions are asked for any tensor, a graph of 2500 chained
tanh nodes raises RecursionError here, and the text now says it: "A graph may be thousands of nodes deep (a
recurrence unrolled over many steps): both functions work at any depth." (test_deep_chain)."""

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
