"""Held-out round 28: aten_ops leaves out the shape bookkeeping operators `aten.sym_size.int` (and the other
`aten.sym_*` overloads) as "not real computation". Exercise 4: "Count a node when its target is a
`torch._ops.OpOverload` or a `torch._ops.HigherOrderOperator`, and nothing else": `aten.sym_size.int` is an
OpOverload, and a runtime must implement it. Wrong on a program exported with a dynamic batch whose forward reads the
batch size, e.g. `x.view(x.size(0), -1)` or `x.reshape(len(x), -1)` exported with `Dim`: its `aten.sym_size.int` node
is missing from aten_ops and from unsupported_ops."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "pass"}
CELLS = {"op_inventory_impl": edited(
    "15-05", "op_inventory_impl",
    ("                counts[str(node.target)] += 1\n",
     "                if not str(node.target).startswith(\"aten.sym_\"):\n"
     "                    counts[str(node.target)] += 1\n"))}
