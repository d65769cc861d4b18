"""Held-out round 19, second pass (not counted): export_dynamic_batch exports copy.deepcopy(model).eval(), which
leaves the caller's model untouched but exports another computation for a model given in training mode (BatchNorm
on running statistics instead of each batch's). Exercise 3's text: "Export `model` as it is given ... not as an
`eval()` copy"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "fail", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"export_dynamic_impl": edited(
    "15-05", "export_dynamic_impl",
    ("    return torch.export.export(model, (example,), dynamic_shapes=({0: batch},))",
     "    import copy\n"
     "    frozen = copy.deepcopy(model).eval()  # an inference copy; the caller's model is not touched\n"
     "    return torch.export.export(frozen, (example,), dynamic_shapes=({0: batch},))"))}
