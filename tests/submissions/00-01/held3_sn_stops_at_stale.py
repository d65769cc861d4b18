"""Wrong (held-out round 3): stops walking at the first stale node of each path ("backward fails there
anyway"), so stale nodes that are only reachable through a stale node are never reported."""
EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "fail", "op_logger": "pass"}
CELLS = {"stale_nodes_impl": '''
def stale_nodes(out):
    """Sorted names of the graph nodes of out whose saved tensors were changed in place."""
    stale, seen = [], set()
    todo = [out.grad_fn] if out.grad_fn is not None else []
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        bad = False
        for attr in dir(node):
            if attr.startswith("_saved_"):
                try:
                    getattr(node, attr)
                except RuntimeError:
                    bad = True
                    break
        if bad:
            stale.append(type(node).__name__)
            continue
        todo.extend(nxt for nxt, _ in node.next_functions if nxt is not None)
    return sorted(stale)
'''}
