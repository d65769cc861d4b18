"""Held-out round 27: trace_mismatches disables gradients with `torch.set_grad_enabled(False)` and switches them back
at the end of the function, not in a `finally` (nor with the `torch.no_grad()` context manager). Exercise 1: "Run
everything, the trace included, under `torch.no_grad()` (no autograd graphs are needed)." `torch.no_grad()` is a
context: whatever happens inside, the caller's grad mode is back when the call ends. Wrong on a call that raises
(a model whose forward fails on one of the inputs, e.g. one with another number of features): the exception leaves
gradients disabled in the caller, who catches it and goes on training with no autograd graph."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"trace_mismatches_impl": edited(
    "15-05", "trace_mismatches_impl",
    ("        with torch.no_grad():\n"
     "            traced = torch.jit.trace(model, example)\n"
     "            return [not torch.allclose(traced(x), model(x)) for x in inputs]\n",
     "        was_enabled = torch.is_grad_enabled()\n"
     "        torch.set_grad_enabled(False)\n"
     "        traced = torch.jit.trace(model, example)\n"
     "        flags = [not torch.allclose(traced(x), model(x)) for x in inputs]\n"
     "        torch.set_grad_enabled(was_enabled)\n"
     "        return flags\n"))}
