"""Unusual but correct (gap round): stale_nodes walks the graph recursively, remembering nodes by id,
and tests each node's saved attributes in a helper that stops at the first one that raises."""
CELLS = {
    "stale_nodes_impl": '''def stale_nodes(out):
    """Sorted names of the graph nodes of out whose saved tensors were changed in place."""
    seen, names = set(), []

    def broken(node):
        for name in (n for n in dir(node) if n.startswith("_saved_")):
            try:
                getattr(node, name)
            except RuntimeError:
                return True
        return False

    def visit(node):
        if node is None or id(node) in seen:
            return
        seen.add(id(node))
        if broken(node):
            names.append(type(node).__name__)
        for nxt, _ in node.next_functions:
            visit(nxt)

    visit(out.grad_fn)
    return sorted(names)
''',
}
EXPECT = {"stale_nodes": "pass"}
