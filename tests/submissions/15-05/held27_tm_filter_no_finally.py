"""Held-out round 27: trace_mismatches installs `warnings.filterwarnings("ignore", category=TracerWarning)` and
removes exactly that filter again at the end of the function, not in a `finally` and not with
`warnings.catch_warnings()`. Exercise 1: "ignore that category inside your function (with
`warnings.catch_warnings()`)". The context restores the caller's filters however the call ends; this one does so
only when it returns. Wrong on a call that raises (a model whose forward fails on one of the inputs): the ignore
filter stays installed for the rest of the caller's session, so the caller's own TracerWarnings are silenced."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"trace_mismatches_impl": edited(
    "15-05", "trace_mismatches_impl",
    ("    with warnings.catch_warnings():\n"
     "        warnings.simplefilter(\"ignore\", torch.jit.TracerWarning)\n"
     "        with torch.no_grad():\n"
     "            traced = torch.jit.trace(model, example)\n"
     "            return [not torch.allclose(traced(x), model(x)) for x in inputs]\n",
     "    warnings.filterwarnings(\"ignore\", category=torch.jit.TracerWarning)\n"
     "    mine = warnings.filters[0]\n"
     "    with torch.no_grad():\n"
     "        traced = torch.jit.trace(model, example)\n"
     "        flags = [not torch.allclose(traced(x), model(x)) for x in inputs]\n"
     "    warnings.filters.remove(mine)\n"
     "    warnings._filters_mutated()\n"
     "    return flags\n"))}
