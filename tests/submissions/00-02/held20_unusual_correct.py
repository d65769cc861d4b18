"""Held-out round 20, correct: graph_nodes by breadth-first search with a deque, and topo_order by Kahn's
algorithm whose in-degrees count every edge (a collections.Counter over next_functions, `y * y` counting
twice), each decrement per edge too."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"graph_impl": edited(
    "00-02", "graph_impl",
    ("    seen, out, stack = set(), [], [t.grad_fn]\n"
     "    seen.add(t.grad_fn)\n"
     "    while stack:\n"
     "        node = stack.pop()\n",
     "    import collections\n"
     "    seen, out, stack = {t.grad_fn}, [], collections.deque([t.grad_fn])\n"
     "    while stack:\n"
     "        node = stack.popleft()\n"),
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
     "    import collections\n"
     "    nodes = graph_nodes(t)\n"
     "    indeg = collections.Counter(m for n in nodes for m, _ in n.next_functions if m is not None)\n"
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
