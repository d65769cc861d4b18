"""Held-out round 19, second pass (not counted): export_dynamic_batch exports with model.eval() and then puts the
model back with model.train(), so the caller's model comes back in the mode it was given, but the program is the eval
copy's (BatchNorm on running statistics) for a model given in training mode. Exercise 3's text: "Export `model` as it
is given: a model in training mode ... is exported in training mode, not as an `eval()` copy"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "fail", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"export_dynamic_impl": edited(
    "15-05", "export_dynamic_impl",
    ("    return torch.export.export(model, (example,), dynamic_shapes=({0: batch},))",
     "    was_training = model.training\n"
     "    ep = torch.export.export(model.eval(), (example,), dynamic_shapes=({0: batch},))  # inference graph\n"
     "    model.train(was_training)\n"
     "    return ep"))}
