"""Held-out round 19, second pass (not counted): unsupported_ops sorts case-insensitively (key=str.lower), which
puts "aten.add.default" before "aten.add.Tensor" where sorted() puts it after. A probe of the text, not a counted
wrong answer: "sorted alphabetically" did not say which order; the text now says sorted() order."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "pass"}
CELLS = {"op_inventory_impl": edited(
    "15-05", "op_inventory_impl",
    ("    return sorted(name for name in aten_ops(ep) if name not in supported)",
     "    return sorted((name for name in aten_ops(ep) if name not in supported), key=str.lower)"))}
