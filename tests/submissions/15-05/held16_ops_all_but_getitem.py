"""Round 16: aten_ops counts every call_function node except operator.getitem (a block list instead of the
OpOverload / HigherOrderOperator test): a program with a dynamic batch whose forward computes with its sizes
(x.shape[0] // 2, x.size(0) * 2) holds operator.floordiv / operator.mul nodes on SymInts, which are counted
("Count a node when its target is a torch._ops.OpOverload or a torch._ops.HigherOrderOperator, and nothing
else")."""
from course.grading.class_run.submissions import edited

EXPECT = {"op_inventory": "fail"}
CELLS = {"op_inventory_impl": edited("15-05", "op_inventory_impl", (
    """            if node.op == "call_function" and isinstance(node.target, (torch._ops.OpOverload,
                                                                       torch._ops.HigherOrderOperator)):""",
    """            if node.op == "call_function" and node.target is not operator.getitem:"""), (
    "def aten_ops(ep)", "import operator\n\n\ndef aten_ops(ep)"))}
