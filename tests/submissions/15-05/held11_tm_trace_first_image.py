"""Held-out round 11: trace_mismatches traces the model on the example's first image only (example[:1]), "a trace
is shape-agnostic anyway". Exercise 1's text: "Trace `model` once, on `example`". BranchyNet decides its branch on
the batch's mean, so a trace on one image can bake the other branch than a trace on the whole example (a mixed
example whose first image is bright but whose mean is below 0.5), and every flag then comes out inverted."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"trace_mismatches_impl": edited(
    "15-05", "trace_mismatches_impl",
    ("traced = torch.jit.trace(model, example)", "traced = torch.jit.trace(model, example[:1])"))}
