"""Wrong (blind batch, issue #19, second round, graph):
topo_order's iterative DFS marks a node as visited when it is pushed, not when it is
entered.

Breaks "every node comes before each node in its next_functions": when a node's two inputs are X and
Y with Y feeding X (z = y + y.exp()), X is pushed and marked from the shared parent, Y later finds X
already marked and finishes first, so the reversed post-order puts X before Y. The diamond of the
notebook (exp and sin of the same y) has no such edge between siblings.
The hidden recipe 'siblings' builds ((y.exp() + y) + (y + y.sin())).sum(), which has the pattern in
both orders of next_functions, so the mistake shows whichever way the stack is filled.
"""
EXPECT = {'graph': 'fail', 'engine': 'pass', 'compress': 'pass', 'evaluate': 'pass', 'checkpoint': 'pass'}

CELLS = {
    'graph_impl': '''
def graph_nodes(t):
    """Every autograd node reachable from t.grad_fn, each once."""
    root = t.grad_fn
    if root is None:
        return []
    found, todo, known = [root], [root], {root}
    while todo:
        node = todo.pop()
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in known:
                known.add(nxt)
                found.append(nxt)
                todo.append(nxt)
    return found


def topo_order(t):
    """The nodes of graph_nodes(t), each before the nodes it feeds gradient to."""
    root = t.grad_fn
    if root is None:
        return []
    finished, visited = [], {root}
    todo = [(root, False)]
    while todo:
        node, leaving = todo.pop()
        if leaving:
            finished.append(node)
            continue
        todo.append((node, True))
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in visited:
                visited.add(nxt)
                todo.append((nxt, False))
    return finished[::-1]
''',
}
