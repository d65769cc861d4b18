"""Held-out round 19: aten_ops counts every call_function node except operator.getitem, reading "(no
operator.getitem)" as the only exclusion. A program exported with a dynamic batch that computes a size
(x.reshape(x.size(0) * 2, -1)) has a call_function node whose target is the Python function operator.mul; this answer
counts it as "<built-in function mul>". Exercise 4's text: "Count a node when its target is a torch._ops.OpOverload
or a torch._ops.HigherOrderOperator, and nothing else"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "pass"}
CELLS = {"op_inventory_impl": edited(
    "15-05", "op_inventory_impl",
    ("def aten_ops(", "import operator\n\n\ndef aten_ops("),
    ("""            if node.op == "call_function" and isinstance(node.target, (torch._ops.OpOverload,
                                                                       torch._ops.HigherOrderOperator)):""",
     """            if node.op == "call_function" and node.target is not operator.getitem:"""))}
