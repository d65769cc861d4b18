"""stale_nodes: walks next_functions recursively without remembering visited nodes, so a stale node that two
paths reach (y = x.exp() used by both sin and tanh) is reported twice. Breaks 'each node once'."""
EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass", "stale_nodes": "fail"}
CELLS = {
    "stale_nodes_impl": '''
def stale_nodes(out):
    names = []

    def visit(node):
        if node is None:
            return
        for attr in dir(node):
            if attr.startswith("_saved_"):
                try:
                    getattr(node, attr)
                except RuntimeError:
                    names.append(type(node).__name__)
                    break
        for nxt, _ in node.next_functions:
            visit(nxt)

    visit(out.grad_fn)
    return sorted(names)
''',
}
