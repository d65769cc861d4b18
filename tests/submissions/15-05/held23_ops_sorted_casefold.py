"""Held-out round 23: unsupported_ops sorts the names alphabetically ignoring case (key=str.lower), so
"aten.clamp.default" comes before "aten.clamp.Tensor" (and "aten.add.Tensor"/"aten.add.default", "aten.gt.Scalar"/
"aten.gt.Tensor" alike). Exercise 4's text: "in `sorted()` order (by code point, so `"aten.clamp.Tensor"` comes before
`"aten.clamp.default"`)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "pass"}
CELLS = {"op_inventory_impl": edited(
    "15-05", "op_inventory_impl",
    ("    return sorted(name for name in aten_ops(ep) if name not in supported)\n",
     "    return sorted((name for name in aten_ops(ep) if name not in supported), key=str.lower)\n"))}
