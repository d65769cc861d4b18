"""Held-out round 19: aten_ops counts an OpOverload only when it is in the aten namespace ("aten_ops": the name
says ATen), plus higher-order operators. A program that calls a custom operator registered with torch.library
(t19::scale, an OpOverload like any other) loses it from the inventory, and unsupported_ops never reports it, which is
the operator a deployment runtime is least likely to have. Exercise 4's text: "Count a node when its target is a
torch._ops.OpOverload or a torch._ops.HigherOrderOperator"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "pass"}
CELLS = {"op_inventory_impl": edited(
    "15-05", "op_inventory_impl",
    ("""            if node.op == "call_function" and isinstance(node.target, (torch._ops.OpOverload,
                                                                       torch._ops.HigherOrderOperator)):""",
     """            t = node.target
            if node.op == "call_function" and (isinstance(t, torch._ops.OpOverload) and t.namespace == "aten"
                                               or isinstance(t, torch._ops.HigherOrderOperator)):"""))}
