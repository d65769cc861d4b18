"""Held-out round 14: graph_nodes returns its seen set (every node once, in any order) instead of a list.
The text: "`graph_nodes(t)` returns a list of every node reachable ...". A caller indexing it
(`graph_nodes(t)[0]`) or comparing it with a list gets an error or False."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "fail"}
CELLS = {"graph_impl": edited(
    "00-02", "graph_impl",
    ("                seen.add(nxt)\n                stack.append(nxt)\n    return out\n",
     "                seen.add(nxt)\n                stack.append(nxt)\n    return seen\n"))}
