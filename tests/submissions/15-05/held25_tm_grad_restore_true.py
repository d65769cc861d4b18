"""Held-out round 25: trace_mismatches switches autograd off with `torch.set_grad_enabled(False)` and, in a
`finally`, switches it back **on** (`torch.set_grad_enabled(True)`) instead of restoring the caller's mode. Exercise 1:
"Run everything, the trace included, under `torch.no_grad()`" (a context that restores the mode it found). Wrong when
the caller itself runs under `torch.no_grad()` (or inference code with grad disabled): after the call, grad mode is on
inside the caller's no_grad block, and the caller's next operations build autograd graphs."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"trace_mismatches_impl": edited(
    "15-05", "trace_mismatches_impl",
    ("        with torch.no_grad():\n"
     "            traced = torch.jit.trace(model, example)\n"
     "            return [not torch.allclose(traced(x), model(x)) for x in inputs]\n",
     "        torch.set_grad_enabled(False)  # no autograd graphs in here\n"
     "        try:\n"
     "            traced = torch.jit.trace(model, example)\n"
     "            return [not torch.allclose(traced(x), model(x)) for x in inputs]\n"
     "        finally:\n"
     "            torch.set_grad_enabled(True)\n"))}
