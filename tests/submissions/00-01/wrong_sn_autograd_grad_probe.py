"""Wrong (blind batch, issue #19, third round for 00-01, closed after it): first tries torch.autograd.grad(out.sum(), leaves, retain_graph=True) and returns [] when it succeeds: no .grad appears and no version changes, but backward runs (hooks fire), against 'do not run backward'.

Caught by the hook stale_nodes_case puts on x: it fires for torch.autograd.grad although no .grad appears.
"""
EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'fail', 'op_logger': 'pass'}

CELLS = {
    'stale_nodes_impl': '''
def stale_nodes(out):
    """Sorted names of the graph nodes of out whose saved tensors were changed in place."""
    root = getattr(out, "grad_fn", None)
    if root is None:
        return []
    seen = {root}
    stack = [root]
    names = []
    order = []
    while stack:
        node = stack.pop()
        order.append(node)
        for attr in dir(node):
            if attr.startswith("_saved_"):
                try:
                    getattr(node, attr)
                except RuntimeError:
                    names.append(type(node).__name__)
                    break
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return sorted(names)


_stale_nodes_walk = stale_nodes


def stale_nodes(out):
    if getattr(out, "grad_fn", None) is None:
        return []
    leaves, seen, stack = [], {out.grad_fn}, [out.grad_fn]
    while stack:
        node = stack.pop()
        if hasattr(node, "variable"):
            leaves.append(node.variable)
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    try:
        torch.autograd.grad(out.sum(), leaves, retain_graph=True, allow_unused=True)
        return []
    except RuntimeError:
        return _stale_nodes_walk(out)
''',
}
