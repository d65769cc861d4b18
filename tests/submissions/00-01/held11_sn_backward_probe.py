"""Held-out round 11: stale_nodes first tries torch.autograd.grad(out.sum(), leaves, retain_graph=True) over
the graph's leaves and answers [] when it succeeds (autograd.grad leaves .grad and every _version alone);
only when it raises does it walk the graph. The answers are right, but the function runs the backward pass
(every node's backward, hooks included). The text: "Only inspect: do not run backward and do not write to
any tensor"."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "fail", "op_logger": "pass"}
CELLS = {"stale_nodes_impl": edited("00-01", "stale_nodes_impl",
                                    ("    stale, seen = [], set()\n",
                                     "    if out.grad_fn is not None:  # fast path: a backward that succeeds means nothing is stale\n"
                                     "        leaves, walk, met = [], [out.grad_fn], set()\n"
                                     "        while walk:\n"
                                     "            node = walk.pop()\n"
                                     "            if node in met:\n"
                                     "                continue\n"
                                     "            met.add(node)\n"
                                     "            if hasattr(node, \"variable\"):\n"
                                     "                leaves.append(node.variable)\n"
                                     "            walk.extend(nxt for nxt, _ in node.next_functions if nxt is not None)\n"
                                     "        if leaves:\n"
                                     "            try:\n"
                                     "                torch.autograd.grad(out.sum(), leaves, retain_graph=True, allow_unused=True)\n"
                                     "                return []\n"
                                     "            except RuntimeError:\n"
                                     "                pass\n"
                                     "    stale, seen = [], set()\n"))}
