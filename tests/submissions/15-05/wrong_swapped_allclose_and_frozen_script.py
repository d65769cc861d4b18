"""Two mistakes in two tasks.

- trace_mismatches: compares with torch.allclose(eager, traced), the arguments swapped, so the relative
  tolerance is taken from the traced output instead of the eager one; float64 logits near 1000 that a branch
  scales by 1 + 1.000005e-5 are then judged the other way. Breaks 'True where
  torch.allclose(traced_output, eager_output) (default tolerances) is False'.
- save_load: save_scripted freezes the scripted module (torch.jit.freeze) 'for deployment'; freezing needs a module
  in eval mode, so a model handed over in training mode makes the call raise and no file is written. Breaks
  'script model with torch.jit.script and save it with torch.jit.save to path' (the text asks for no eval mode).
"""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "fail"}
CELLS = {
    "trace_mismatches_impl": edited("15-05", "trace_mismatches_impl",
        ("torch.allclose(traced(x), model(x))", "torch.allclose(model(x), traced(x))")),
    "save_load_impl": edited("15-05", "save_load_impl",
        ("torch.jit.save(torch.jit.script(model), path)",
         "torch.jit.save(torch.jit.freeze(torch.jit.script(model)), path)")),
}
