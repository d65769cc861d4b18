"""Held-out round 27, a CORRECT answer written unusually: trace_mismatches enters `warnings.catch_warnings()` and
`torch.no_grad()` through one `contextlib.ExitStack`, installs the TracerWarning filter with `filterwarnings` (inside
the saved-and-restored filter state), and decides each flag with `torch.isclose(traced, eager).all()`, which is how
`torch.allclose` is defined (same default rtol/atol, same argument order, same broadcasting, NaN not close, equal
infinities close), turned into a Python bool with `bool(...)`. It traces once, on `example`, calls the eager model as
`model(x)`, builds one flag per input in order (none for none) and restores the caller's warning filters and grad
mode however the call ends. Every check must pass."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"trace_mismatches_impl": edited(
    "15-05", "trace_mismatches_impl",
    ("    with warnings.catch_warnings():\n"
     "        warnings.simplefilter(\"ignore\", torch.jit.TracerWarning)\n"
     "        with torch.no_grad():\n"
     "            traced = torch.jit.trace(model, example)\n"
     "            return [not torch.allclose(traced(x), model(x)) for x in inputs]\n",
     "    import contextlib\n"
     "\n"
     "    flags = []\n"
     "    with contextlib.ExitStack() as stack:\n"
     "        stack.enter_context(warnings.catch_warnings())\n"
     "        warnings.filterwarnings(\"ignore\", category=torch.jit.TracerWarning)\n"
     "        stack.enter_context(torch.no_grad())\n"
     "        traced = torch.jit.trace(model, example)\n"
     "        for x in inputs:\n"
     "            flags.append(not bool(torch.isclose(traced(x), model(x)).all()))\n"
     "    return flags\n"))}
