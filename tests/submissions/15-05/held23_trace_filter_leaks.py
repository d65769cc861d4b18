"""Held-out round 23: trace_mismatches silences TracerWarning with warnings.filterwarnings(...) at the top of the
function, without warnings.catch_warnings(): nothing escapes during the call, but the filter stays installed after it
returns, so every TracerWarning the caller's later traces raise is hidden too. Exercise 1's text: "ignore that
category inside your function (with warnings.catch_warnings())"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"trace_mismatches_impl": edited(
    "15-05", "trace_mismatches_impl",
    ("    with warnings.catch_warnings():\n        warnings.simplefilter(\"ignore\", torch.jit.TracerWarning)\n",
     "    warnings.filterwarnings(\"ignore\", category=torch.jit.TracerWarning)\n    if True:\n"))}
