"""Known-wrong topo_order (gap round): lets autograd itself order the nodes: a pre-hook on every node records
the order in which a backward pass (torch.autograd.grad with retain_graph=True) runs them. The order is
topological and the graph stays usable, but the text says neither function runs backward."""
from course.grading.class_run.submissions import edited

CELLS = {"graph_impl": edited("00-02", "graph_impl",
    ("    post, done = [], set()\n"
     "    stack = [(t.grad_fn, False)]\n"
     "    while stack:\n"
     "        node, children_done = stack.pop()\n"
     "        if children_done:\n"
     "            post.append(node)\n"
     "            continue\n"
     "        if node in done:\n"
     "            continue\n"
     "        done.add(node)\n"
     "        stack.append((node, True))\n"
     "        for nxt, _ in node.next_functions:\n"
     "            if nxt is not None and nxt not in done:\n"
     "                stack.append((nxt, False))\n"
     "    return post[::-1]",
     "    nodes = graph_nodes(t)\n"
     "    order = []\n"
     "    handles = [n.register_prehook(lambda g, n=n: order.append(n)) for n in nodes]\n"
     "    try:\n"
     "        leaves = [n.variable for n in nodes if hasattr(n, 'variable')]\n"
     "        torch.autograd.grad(t, leaves, torch.ones_like(t), retain_graph=True, allow_unused=True)\n"
     "    finally:\n"
     "        for h in handles:\n"
     "            h.remove()\n"
     "    seen = set(order)\n"
     "    return order + [n for n in nodes if n not in seen]"))}
EXPECT = {"graph": "fail"}
