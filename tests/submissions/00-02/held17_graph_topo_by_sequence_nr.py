"""Held-out round 17: topo_order sorts graph_nodes(t) by each node's creation number (`_sequence_nr()`, later
operations first, AccumulateGrad last). In one thread a node is always created after the nodes of its inputs,
so every single-threaded graph comes out right; but the counter is per thread: a graph continued in another
thread (a data-loading or pipeline thread, `torch.nn.parallel` replicas) numbers its nodes from 0, and the
nodes it adds sort after the older nodes they feed. The text: "`topo_order(t)` returns the same nodes ...,
ordered so that every node comes before each node in its `next_functions`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "fail"}
CELLS = {"graph_impl": edited(
    "00-02", "graph_impl",
    ("    if t.grad_fn is None:\n"
     "        return []\n"
     "    post, done = [], set()\n"
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
     "    return post[::-1]\n",
     "    # a node is created after the nodes of its inputs: newest first is a topological order\n"
     "    def key(node):\n"
     "        return -1 if type(node).__name__ == \"AccumulateGrad\" else node._sequence_nr()\n"
     "    return sorted(graph_nodes(t), key=key, reverse=True)\n"))}
