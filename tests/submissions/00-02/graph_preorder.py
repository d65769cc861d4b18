"""topo_order is a depth-first walk that lists each node when it is first reached (pre-order): on a diamond a node
can come before another node that still feeds it gradient."""
EXPECT = {"graph": "fail", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"graph_impl": '''
def graph_nodes(t):
    return topo_order(t)


def topo_order(t):
    order, seen = [], set()

    def visit(n):
        if n is None or n in seen:
            return
        seen.add(n)
        order.append(n)
        for m, _ in n.next_functions:
            visit(m)
    visit(t.grad_fn)
    return order
'''}
