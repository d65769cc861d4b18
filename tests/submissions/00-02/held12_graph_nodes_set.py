"""Round 12 (held out): graph_nodes returns the set it used to remember what it saw, not a list
("graph_nodes(t) returns a list of every node"); a leaf still gets [] so the visible check passes."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "fail"}
CELLS = {"graph_impl": edited("00-02", "graph_impl", ("    return out\n", "    return seen\n"))}
