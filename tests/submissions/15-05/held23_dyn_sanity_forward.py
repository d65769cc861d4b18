"""Held-out round 23: export_dynamic_batch first runs the model once on the example "to check that it works" (under
torch.no_grad()): a model in training mode with BatchNorm updates its running_mean, running_var and
num_batches_tracked, so the caller's model and the exported program's weights are no longer the model as it was
given. Exercise 3's text: "Export `model` as it is given"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "fail", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"export_dynamic_impl": edited(
    "15-05", "export_dynamic_impl",
    ("    return torch.export.export(",
     "    with torch.no_grad():\n        model(example)  # sanity check before exporting\n"
     "    return torch.export.export("))}
