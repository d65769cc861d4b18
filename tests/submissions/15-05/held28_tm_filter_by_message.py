"""Held-out round 28: trace_mismatches ignores only the TracerWarning whose message starts "Converting a tensor to a
Python boolean" (`warnings.filterwarnings("ignore", message=..., category=TracerWarning)`), the one BranchyNet emits.
Exercise 1: "Tracing a model with a branch emits a `TracerWarning`; ignore that category inside your function ... so
that calling it prints nothing to stderr." The category, not one message: wrong on a model whose forward converts a
tensor to a Python number (`float(x.abs().max())`, "Converting a tensor to a Python float") or builds a constant with
`torch.tensor(...)`: those TracerWarnings reach stderr."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"trace_mismatches_impl": edited(
    "15-05", "trace_mismatches_impl",
    ("        warnings.simplefilter(\"ignore\", torch.jit.TracerWarning)\n",
     "        warnings.filterwarnings(\"ignore\", message=\"Converting a tensor to a Python boolean\",\n"
     "                                category=torch.jit.TracerWarning)\n"))}
