"""Held-out round 23, second pass (written after reading the suite, not counted): save_exported "leaves the model in
the mode it came in" with model.train(was_training) after exporting: on a model in training mode with a submodule
frozen by .eval() (fine-tuning), the call switches that submodule back to training mode. Exercise 5's text: "script
and export it as it is given ... and leave it in that mode"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "fail"}
CELLS = {"save_load_impl": edited(
    "15-05", "save_load_impl",
    ("    torch.export.save(torch.export.export(model, (example,), dynamic_shapes=({0: batch},)), path)\n",
     "    was_training = model.training\n"
     "    torch.export.save(torch.export.export(model, (example,), dynamic_shapes=({0: batch},)), path)\n"
     "    model.train(was_training)\n"))}
