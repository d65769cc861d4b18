"""Held-out round 25: save_scripted scripts `model.train(model.training)` ("script it in the mode it was given"),
which sets every submodule to the top-level module's mode. Exercise 5: "script and export it as it is given (not an
`eval()` or frozen copy) and leave it in that mode". Wrong on a training model with a submodule frozen with `.eval()`
(e.g. a Dropout or BatchNorm block): the file holds that block in training mode, and the caller's block is switched
to training mode too."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "fail"}
CELLS = {"save_load_impl": edited(
    "15-05", "save_load_impl",
    ("    torch.jit.save(torch.jit.script(model), path)\n",
     "    torch.jit.save(torch.jit.script(model.train(model.training)), path)  # in the mode it was given\n"))}
