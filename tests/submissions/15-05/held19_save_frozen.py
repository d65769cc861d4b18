"""Held-out round 19: save_scripted freezes the scripted module for deployment,
torch.jit.freeze(torch.jit.script(model).eval()): the saved file holds a module in eval mode whose weights are inlined
constants (no parameters, no state_dict), so a model given in training mode (BatchNorm on batch statistics) loads as
another computation. Exercise 5's text: "script `model` with torch.jit.script ... and save it with torch.jit.save"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "fail"}
CELLS = {"save_load_impl": edited("15-05", "save_load_impl",
                            ("torch.jit.save(torch.jit.script(model), path)",
                             "torch.jit.save(torch.jit.freeze(torch.jit.script(model).eval()), path)  # deployment: frozen"))}
