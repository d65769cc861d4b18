"""Held-out round 23: export_dynamic_batch "leaves the model in the mode it came in" by calling
model.train(was_training) after exporting: on a model in training mode whose BatchNorm was frozen with .eval() (the
usual fine-tuning set-up), the call puts that BatchNorm back into training mode, so the caller's model now normalises
with batch statistics and updates running stats. Exercise 3's text: the model "is left in the mode it came in"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "fail", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"export_dynamic_impl": edited(
    "15-05", "export_dynamic_impl",
    ("    return torch.export.export(model, (example,), dynamic_shapes=({0: batch},))\n",
     "    was_training = model.training\n"
     "    ep = torch.export.export(model, (example,), dynamic_shapes=({0: batch},))\n"
     "    model.train(was_training)\n"
     "    return ep\n"))}
