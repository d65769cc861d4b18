"""Wrong (held-out round 3): stops walking at the first stale node of each path ("backward fails there
anyway"), so stale nodes that are only reachable through a stale node are never reported."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "fail", "op_logger": "pass"}
CELLS = {"stale_nodes_impl": edited("00-01", "stale_nodes_impl",
    ("        seen.add(node)\n", "        seen.add(node)\n        bad = False\n"),
    ("                    stale.append(type(node).__name__)\n", "                    bad = True\n"),
    ("        todo.extend(", "        if bad:\n            stale.append(type(node).__name__)\n            continue\n        todo.extend("))}
