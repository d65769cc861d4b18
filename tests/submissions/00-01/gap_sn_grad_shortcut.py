"""Known-wrong stale_nodes (gap round): first tries torch.autograd.grad of out.sum() with respect to the
graph's leaves (retain_graph=True, so nothing is freed and no .grad appears) and returns [] when it
succeeds ("Only inspect: do not run backward")."""
from course.grading.class_run.submissions import edited

CELLS = {"stale_nodes_impl": edited("00-01", "stale_nodes_impl",
    ("    stale, seen = [], set()\n",
     "    if out.grad_fn is None:\n        return []\n"
     "    leaves, seen, todo = [], set(), [out.grad_fn]\n"
     "    while todo:\n        node = todo.pop()\n        if node in seen:\n            continue\n        seen.add(node)\n"
     "        if hasattr(node, 'variable'):\n            leaves.append(node.variable)\n"
     "        todo.extend(nxt for nxt, _ in node.next_functions if nxt is not None)\n"
     "    try:\n        torch.autograd.grad(out.sum(), leaves, retain_graph=True, allow_unused=True)\n        return []\n"
     "    except RuntimeError:\n        pass\n"
     "    stale, seen = [], set()\n"))}
EXPECT = {"stale_nodes": "fail"}
