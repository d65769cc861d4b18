"""Blind batch, issue #19, third round (graph): breaks the topological order: reuses the demo's longest-depth code
but runs it over graph_nodes' discovery order (not a topological order), so a depth raised late is never passed on
to the nodes below."""
EXPECT = {'graph': 'fail', 'engine': 'pass', 'compress': 'pass', 'evaluate': 'pass', 'checkpoint': 'pass'}
BASE = "reference"
CELLS = {
    'graph_impl': r'''
def graph_nodes(t):
    """Every autograd node reachable from t.grad_fn, each once."""
    root = t.grad_fn
    if root is None:
        return []
    seen, found, stack = {id(root)}, [], [root]
    while stack:
        n = stack.pop()
        found.append(n)
        for m, _ in n.next_functions:
            if m is not None and id(m) not in seen:
                seen.add(id(m))
                stack.append(m)
    return found


def topo_order(t):
    """The nodes of graph_nodes(t), each before the nodes it feeds gradient to."""
    nodes = graph_nodes(t)
    if not nodes:
        return []
    depth = {id(nodes[0]): 0}
    for n in nodes:
        for m, _ in n.next_functions:
            if m is not None:
                depth[id(m)] = max(depth.get(id(m), 0), depth.get(id(n), 0) + 1)
    return sorted(nodes, key=lambda n: depth[id(n)])
''',
}
