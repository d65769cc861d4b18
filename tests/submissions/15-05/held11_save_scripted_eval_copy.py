"""Held-out round 11: save_scripted scripts an eval-mode copy (torch.jit.script(copy.deepcopy(model).eval()),
"a deployed model is in eval mode"): the caller's model is untouched, but the file holds another module state than
the one given: a model passed in training mode (Dropout active) loads in eval mode. Exercise 5's text:
"save_scripted(model, path): script `model` with torch.jit.script ... and save it"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "fail"}
CELLS = {"save_load_impl": "import copy\n\n\n" + edited(
    "15-05", "save_load_impl",
    ("torch.jit.save(torch.jit.script(model), path)",
     "torch.jit.save(torch.jit.script(copy.deepcopy(model).eval()), path)"))}
