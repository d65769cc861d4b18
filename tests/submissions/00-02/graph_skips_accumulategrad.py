"""Walks only the 'real' operations: AccumulateGrad nodes of the leaves are treated as the end of the graph and left out."""
EXPECT = {"graph": "fail", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"graph_impl": '''
def _ops(t):
    out, seen, todo = [], set(), [t.grad_fn] if t.grad_fn is not None else []
    while todo:
        n = todo.pop()
        if n in seen or type(n).__name__ == "AccumulateGrad":
            continue
        seen.add(n)
        out.append(n)
        todo.extend(m for m, _ in n.next_functions if m is not None)
    return out


def graph_nodes(t):
    return _ops(t)


def topo_order(t):
    order, done = [], set()

    def visit(n):
        if n in done or type(n).__name__ == "AccumulateGrad":
            return
        done.add(n)
        for m, _ in n.next_functions:
            if m is not None:
                visit(m)
        order.append(n)
    if t.grad_fn is not None:
        visit(t.grad_fn)
    return order[::-1]
'''}
