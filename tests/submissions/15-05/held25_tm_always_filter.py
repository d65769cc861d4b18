"""Held-out round 25: trace_mismatches, to make sure "only that category is ignored", first sets
`warnings.simplefilter("always")` inside its `catch_warnings()` and then ignores TracerWarning. That also overrides
the caller's own filters: the notebook (and any caller) silences torch.jit's deprecation FutureWarning, and inside this
function `torch.jit.trace` prints it to stderr on every call. Exercise 1: "ignore that category inside your function
(with `warnings.catch_warnings()`) so that calling it prints nothing to stderr". Wrong on every call made under a
filter that ignores the deprecation message (the notebook's own setup)."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"trace_mismatches_impl": edited(
    "15-05", "trace_mismatches_impl",
    ("        warnings.simplefilter(\"ignore\", torch.jit.TracerWarning)\n",
     "        warnings.simplefilter(\"always\")  # every other warning still reaches the caller\n"
     "        warnings.simplefilter(\"ignore\", torch.jit.TracerWarning)\n"))}
