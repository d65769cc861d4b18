"""Held-out round 11: export_dynamic_batch exports on example.float() ("export wants float32"), not on `example`:
a float64 model (model.double(), with a float64 example) then fails to export, or a program comes back that takes
another dtype than the model's. Exercise 3's text: "exports `model` ... on `example`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "fail", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"export_dynamic_impl": edited("15-05", "export_dynamic_impl", ("(example,)", "(example.float(),)"))}
