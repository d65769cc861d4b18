"""Held-out round 27: `topo_order` is a recursive depth-first search (post-order, reversed), the shape of the
worked example's `visit`. Right on every graph a few hundred nodes deep, but a chain deeper than Python's
recursion limit (a loop of 1500 `h = h * 1.01`, an unrolled RNN) raises RecursionError. The text:
"`topo_order(t)` returns the same nodes as `graph_nodes(t)`, ordered so that every node comes before each node
in its `next_functions`" for any tensor `t`; nothing limits the depth of the graph."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "fail", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"graph_impl": edited(
    "00-02", "graph_impl",
    ("""    post, done = [], set()
    stack = [(t.grad_fn, False)]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            post.append(node)
            continue
        if node in done:
            continue
        done.add(node)
        stack.append((node, True))
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in done:
                stack.append((nxt, False))
    return post[::-1]
""", """    post, done = [], set()

    def visit(node):
        done.add(node)
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in done:
                visit(nxt)
        post.append(node)
    visit(t.grad_fn)
    return post[::-1]
"""))}
