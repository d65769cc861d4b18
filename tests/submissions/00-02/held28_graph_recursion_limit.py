"""Wrong (held-out round 28): both functions recurse, after raising Python's recursion limit to 10,000 (and
leaving it raised). Violates "A graph may be thousands of nodes deep ...: both functions work at any depth".
Goes wrong on a chain deeper than about 10,000 nodes (h = h * 1.0001 + 0.1 unrolled over 6,000 steps: 12,001
nodes), where both raise RecursionError (8,001 nodes still work)."""

EXPECT = {"graph": "fail"}
CELLS = {"graph_impl": '''
import sys


def graph_nodes(t):
    """Every autograd node reachable from t.grad_fn, each once."""
    if t.grad_fn is None:
        return []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))  # deep graphs: thousands of nodes
    seen, out = set(), []

    def visit(node):
        seen.add(node)
        out.append(node)
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in seen:
                visit(nxt)

    visit(t.grad_fn)
    return out


def topo_order(t):
    """The nodes of graph_nodes(t), each before the nodes it feeds gradient to."""
    if t.grad_fn is None:
        return []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    seen, post = set(), []

    def visit(node):
        seen.add(node)
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in seen:
                visit(nxt)
        post.append(node)

    visit(t.grad_fn)
    return post[::-1]
'''}
