"""Held-out round 11: aten_ops counts an OpOverload only when its name starts with "aten." ("the function is called
aten_ops"), so operators of other namespaces, e.g. a custom operator registered with torch.library.custom_op
("mylib.clip_scale.default"), which a runtime must also provide, are left out. Exercise 4's text: "the name of every
operator the program calls ... Count a node when its target is a torch._ops.OpOverload or a
torch._ops.HigherOrderOperator"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "pass"}
CELLS = {"op_inventory_impl": edited(
    "15-05", "op_inventory_impl",
    ("                counts[str(node.target)] += 1\n",
     "                if (isinstance(node.target, torch._ops.HigherOrderOperator)\n"
     "                        or str(node.target).startswith(\"aten.\")):\n"
     "                    counts[str(node.target)] += 1\n"))}
