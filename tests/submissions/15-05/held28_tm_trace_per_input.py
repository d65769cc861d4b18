"""Held-out round 28: trace_mismatches traces `model` on `example` again for every input (a fresh
`torch.jit.trace(model, example)` inside the loop), and not at all when `inputs` is empty. Exercise 1: "Trace `model`
once, on `example`, with `torch.jit.trace`." Wrong on any list of several inputs: n inputs cost n traces (n forward
passes of the model on `example` instead of one, and for a model with state, e.g. a BatchNorm in training mode or a
call counter, n updates); on an empty list the model is never traced (a model that cannot be traced is not
reported)."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"trace_mismatches_impl": edited(
    "15-05", "trace_mismatches_impl",
    ("            traced = torch.jit.trace(model, example)\n"
     "            return [not torch.allclose(traced(x), model(x)) for x in inputs]\n",
     "            return [not torch.allclose(torch.jit.trace(model, example)(x), model(x)) for x in inputs]\n"))}
