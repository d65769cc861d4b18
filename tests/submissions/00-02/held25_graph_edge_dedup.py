"""Held-out round 25: both functions remember the *edges* they followed, the `(node, input_nr)` pairs of
`next_functions`, instead of the nodes. For single-output operations a node is always reached with the same
`input_nr`, so nothing changes; but an operation with several outputs (`unbind`, `chunk`, `split`, `max(dim)`)
is reached once per output used: `a, b = w.unbind(0); t = a * b` lists `UnbindBackward0` twice. The text:
"Each node appears exactly once, even when several paths reach it" (and topo_order "returns the same nodes")."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "fail", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"graph_impl": edited(
    "00-02", "graph_impl",
    ("    seen, out, stack = set(), [], [t.grad_fn]\n"
     "    seen.add(t.grad_fn)\n"
     "    while stack:\n"
     "        node = stack.pop()\n"
     "        out.append(node)\n"
     "        for nxt, _ in node.next_functions:\n"
     "            if nxt is not None and nxt not in seen:\n"
     "                seen.add(nxt)\n"
     "                stack.append(nxt)\n",
     "    seen, out, stack = set(), [], [t.grad_fn]\n"
     "    seen.add((t.grad_fn, t.output_nr))\n"
     "    while stack:\n"
     "        node = stack.pop()\n"
     "        out.append(node)\n"
     "        for edge in node.next_functions:\n"
     "            if edge[0] is not None and edge not in seen:\n"
     "                seen.add(edge)\n"
     "                stack.append(edge[0])\n"),
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
     "                stack.append((nxt, False))\n",
     "    post, done = [], set()\n"
     "    stack = [((t.grad_fn, t.output_nr), False)]\n"
     "    while stack:\n"
     "        edge, children_done = stack.pop()\n"
     "        if children_done:\n"
     "            post.append(edge[0])\n"
     "            continue\n"
     "        if edge in done:\n"
     "            continue\n"
     "        done.add(edge)\n"
     "        stack.append((edge, True))\n"
     "        for nxt in edge[0].next_functions:\n"
     "            if nxt[0] is not None and nxt not in done:\n"
     "                stack.append((nxt, False))\n"))}
