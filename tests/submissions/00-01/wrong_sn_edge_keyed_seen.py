"""stale_nodes: the seen set holds (node, input_nr) edges from next_functions instead of nodes, so a node with
two outputs that both lead to the output (var_mean's one node) is walked twice and, when stale, named twice.
Breaks 'each node once even when several paths lead to it' and 'one name per stale node'. Caught by the named
case exp, then var_mean of it, var + mean, with exp's result written afterwards."""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass',
          'stale_nodes': 'fail', 'op_logger': 'pass'}
CELLS = {"stale_nodes_impl": edited(
    "00-01", "stale_nodes_impl",
    ("todo = [out.grad_fn] if out.grad_fn is not None else []",
     "todo = [(out.grad_fn, 0)] if out.grad_fn is not None else []"),
    ("""        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)""", """        edge = todo.pop()
        if edge in seen:
            continue
        seen.add(edge)
        node = edge[0]"""),
    ("todo.extend(nxt for nxt, _ in node.next_functions if nxt is not None)",
     "todo.extend(e for e in node.next_functions if e[0] is not None)"))}
