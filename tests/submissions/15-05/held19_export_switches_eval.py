"""Held-out round 19: export_dynamic_batch calls model.eval() before exporting ("export is for inference"). A model
given in training mode (BatchNorm normalising with the batch's statistics) is exported as another computation (running
statistics), and the caller's model is left in eval mode, which hides the difference from a check that compares with
the model after the call. Exercise 3's text: "exports `model` ... Return the ExportedProgram" (the model as given;
exercise 1 traces a training-mode model as given too)."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "fail", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"export_dynamic_impl": edited("15-05", "export_dynamic_impl",
                                 ("torch.export.export(model, ", "torch.export.export(model.eval(), "))}
