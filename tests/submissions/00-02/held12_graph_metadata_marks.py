"""Round 12 (held out): the visited marks are written into each node's .metadata and never removed, so the
graph is changed ("neither function ... changes the graph"): a second call on the same tensor, or a new
graph that shares a leaf's AccumulateGrad, stops at the marked nodes."""
EXPECT = {"graph": "fail"}
CELLS = {"graph_impl": '''def graph_nodes(t):
    """Every autograd node reachable from t.grad_fn, each once."""
    if t.grad_fn is None:
        return []
    out, stack = [], [t.grad_fn]
    t.grad_fn.metadata["graph_nodes_seen"] = True
    while stack:
        node = stack.pop()
        out.append(node)
        for nxt, _ in node.next_functions:
            if nxt is not None and not nxt.metadata.get("graph_nodes_seen"):
                nxt.metadata["graph_nodes_seen"] = True
                stack.append(nxt)
    return out


def topo_order(t):
    """The nodes of graph_nodes(t), each before the nodes it feeds gradient to."""
    if t.grad_fn is None:
        return []
    post, stack = [], [(t.grad_fn, False)]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            post.append(node)
            continue
        if node.metadata.get("topo_done"):
            continue
        node.metadata["topo_done"] = True
        stack.append((node, True))
        for nxt, _ in node.next_functions:
            if nxt is not None and not nxt.metadata.get("topo_done"):
                stack.append((nxt, False))
    return post[::-1]
'''}
