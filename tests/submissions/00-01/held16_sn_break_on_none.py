"""Round 16 held-out: stale_nodes stops reading a node's next_functions at the first None entry
(`break` for `continue`), so in `c * x.exp()` with a constant c the exp node is never visited (the
text: "skip the None entries of next_functions")."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "fail", "op_logger": "pass"}
CELLS = {"stale_nodes_impl": edited("00-01", "stale_nodes_impl", (
    "        todo.extend(nxt for nxt, _ in node.next_functions if nxt is not None)",
    """        for nxt, _ in node.next_functions:
            if nxt is None:
                break
            todo.append(nxt)"""))}
