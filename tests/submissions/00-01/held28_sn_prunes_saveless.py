"""Round 28: stale_nodes walks on only from nodes that have at least one `_saved_...` attribute, so a node
that saves nothing (NegBackward0, CloneBackward0, TBackward0 ...) hides everything behind it. Breaks
"Visit every node reachable from `out.grad_fn` through `next_functions`": wrong for y = x.exp(); out = -y;
y.mul_(2): gives [] (NegBackward0 saves nothing), the answer is ["ExpBackward0"]."""
from course.grading.class_run.submissions import edited

EXPECT = {"stale_nodes": "fail"}
CELLS = {"stale_nodes_impl": edited("00-01", "stale_nodes_impl", (
    '''        todo.extend(nxt for nxt, _ in node.next_functions if nxt is not None)''',
    '''        if any(attr.startswith("_saved_") for attr in dir(node)):
            todo.extend(nxt for nxt, _ in node.next_functions if nxt is not None)'''))}
