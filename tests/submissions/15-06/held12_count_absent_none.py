"""Held-out round 12 (issue 39): count_ops pre-fills all six opcodes with dict.fromkeys, so an opcode that
does not occur maps to None. Breaks: "Opcodes that do not occur may be left out or given the value 0"
(None is neither)."""
from course.grading.class_run.submissions import edited

CELLS = {"count_ops_impl": edited("15-06", "count_ops_impl",
                                  ("    return dict(Counter(node.op for node in gm.graph.nodes))\n",
                                   "    counts = dict.fromkeys((\"placeholder\", \"get_attr\", \"call_module\", \"call_function\",\n"
                                   "                            \"call_method\", \"output\"))\n"
                                   "    for node in gm.graph.nodes:\n"
                                   "        counts[node.op] = (counts[node.op] or 0) + 1\n"
                                   "    return counts\n"))}
EXPECT = {"count_ops": "fail"}
