"""Held-out round 23: trace_mismatches keeps the trace of each model in a module-level cache keyed by id(model)
("tracing is slow, trace each model once"): a second call with the same model and another example (a bright one
after a dark one) reuses the first call's trace, so the flags are those of the old example's branch. Exercise 1's
text: "Trace `model` once, on `example`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"trace_mismatches_impl": "_TRACES = {}\n\n\n" + edited(
    "15-05", "trace_mismatches_impl",
    ("            traced = torch.jit.trace(model, example)\n",
     "            if id(model) not in _TRACES:\n"
     "                _TRACES[id(model)] = (model, torch.jit.trace(model, example))\n"
     "            traced = _TRACES[id(model)][1]\n"))}
