"""Held-out round 11: unsupported_ops leaves out higher-order operators (names without a dot, such as "cond":
"structure, not operators"), so a runtime without cond is told the program runs on it. Exercise 4's text:
unsupported_ops "returns the names counted by aten_ops(ep) that are not in the set of strings `supported`", and
aten_ops counts torch._ops.HigherOrderOperator calls."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "pass"}
CELLS = {"op_inventory_impl": edited(
    "15-05", "op_inventory_impl", ("if name not in supported)", "if name not in supported and \".\" in name)"))}
