"""Wrong (held-out round 8): stale_nodes starts its walk at out.grad_fn.next_functions, so the root node
out.grad_fn itself is never inspected: out = y.sin() followed by y.add_(1) reports [] although backward
fails. Breaks "Visit every node reachable from out.grad_fn" and "the list is empty exactly when
out.sum().backward() would succeed"."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass", "stale_nodes": "fail", "op_logger": "pass"}
CELLS = {"stale_nodes_impl": edited("00-01", "stale_nodes_impl", (
    "    todo = [out.grad_fn] if out.grad_fn is not None else []\n",
    "    todo = [n for n, _ in out.grad_fn.next_functions if n is not None] if out.grad_fn is not None else []\n"))}
