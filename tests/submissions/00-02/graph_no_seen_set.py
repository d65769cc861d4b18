"""A breadth-first walk with no record of visited nodes: a node reached by two paths is listed twice."""
EXPECT = {"graph": "fail", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"graph_impl": '''
def graph_nodes(t):
    if t.grad_fn is None:
        return []
    out, queue = [], [t.grad_fn]
    while queue:
        n = queue.pop(0)
        out.append(n)
        queue += [m for m, _ in n.next_functions if m is not None]
    return out


def topo_order(t):
    return graph_nodes(t)  # breadth-first: the loss first, the leaves last
'''}
