"""Held-out round 23: aten_ops counts an OpOverload only when its namespace is "aten" (the function is called
aten_ops), plus higher-order operators: a custom operator (torch.library.custom_op, an OpOverload such as
"mylib.scale.default") or a prims/quantized_decomposed operator is left out, which is exactly what a runtime would not
support. Exercise 4's text: "Count a node when its target is a `torch._ops.OpOverload` or a
`torch._ops.HigherOrderOperator`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "pass"}
CELLS = {"op_inventory_impl": edited(
    "15-05", "op_inventory_impl",
    ("            if node.op == \"call_function\" and isinstance(",
     "            if node.op == \"call_function\" and getattr(node.target, \"namespace\", \"aten\") in (\"aten\", \"higher_order\") and isinstance("))}
