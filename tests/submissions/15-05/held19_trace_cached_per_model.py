"""Held-out round 19: trace_mismatches keeps the trace of each model in a module-level dict ("tracing is slow:
trace each model once") and reuses it on the next call with the same model, whatever that call's example is. A second
call that traces the same BranchyNet on a bright example gets the dark trace back, so its flags are those of the first
call's example. Exercise 1's text: "Trace `model` once, on `example`", the example of this call."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"trace_mismatches_impl": edited(
    "15-05", "trace_mismatches_impl",
    ("def trace_mismatches(", "_TRACES = {}  # model -> its trace\n\n\ndef trace_mismatches("),
    ("            traced = torch.jit.trace(model, example)\n",
     "            if model not in _TRACES:  # tracing is slow: trace each model once\n"
     "                _TRACES[model] = torch.jit.trace(model, example)\n"
     "            traced = _TRACES[model]\n"))}
