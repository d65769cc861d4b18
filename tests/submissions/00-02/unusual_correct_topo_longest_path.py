"""Correct, unusual (blind batch, issue #19, third round, graph): topo_order sorts by the longest path from the root,
computed by relaxing every edge until nothing changes (Bellman-Ford style); graph_nodes is a BFS with a deque."""
EXPECT = {'graph': 'pass', 'engine': 'pass', 'compress': 'pass', 'evaluate': 'pass', 'checkpoint': 'pass'}
BASE = "reference"
CELLS = {
    'graph_impl': r'''
from collections import deque


def graph_nodes(t):
    """Every autograd node reachable from t.grad_fn, each once."""
    if t.grad_fn is None:
        return []
    known = {id(t.grad_fn): t.grad_fn}
    queue = deque([t.grad_fn])
    while queue:
        for m, _ in queue.popleft().next_functions:
            if m is not None and id(m) not in known:
                known[id(m)] = m
                queue.append(m)
    return list(known.values())


def topo_order(t):
    """The nodes of graph_nodes(t), each before the nodes it feeds gradient to."""
    nodes = graph_nodes(t)
    level = {id(n): 0 for n in nodes}
    edges = [(id(n), id(m)) for n in nodes for m, _ in n.next_functions if m is not None]
    changed = True
    while changed:
        changed = False
        for a, b in edges:
            if level[b] < level[a] + 1:
                level[b] = level[a] + 1
                changed = True
    return sorted(nodes, key=lambda n: level[id(n)])
''',
}
