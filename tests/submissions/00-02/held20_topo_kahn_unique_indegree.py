"""Held-out round 20: topo_order is Kahn's algorithm whose in-degrees count each *parent* once (a set of
parents per node), while the release loop decrements once per *edge*. A node fed twice by the same parent
(`y * y`) reaches in-degree 0 as soon as that parent runs, before its other parents: `y = w * 2;
z = y.exp() + y * y` puts y's MulBackward0 before ExpBackward0. The text: "ordered so that every node comes
before each node in its `next_functions`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "fail"}
CELLS = {"graph_impl": edited(
    "00-02", "graph_impl",
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
     "    parents = {n: set() for n in nodes}\n"
     "    for n in nodes:\n"
     "        for m, _ in n.next_functions:\n"
     "            if m is not None:\n"
     "                parents[m].add(n)\n"
     "    indeg = {n: len(parents[n]) for n in nodes}\n"
     "    ready, out = [t.grad_fn], []\n"
     "    while ready:\n"
     "        n = ready.pop()\n"
     "        out.append(n)\n"
     "        for m, _ in n.next_functions:\n"
     "            if m is not None:\n"
     "                indeg[m] -= 1\n"
     "                if indeg[m] == 0:\n"
     "                    ready.append(m)\n"
     "    return out"))}
