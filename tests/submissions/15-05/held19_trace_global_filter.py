"""Held-out round 19: trace_mismatches silences TracerWarning with a bare warnings.simplefilter at the top of the
function, not inside warnings.catch_warnings(): nothing reaches stderr during the call, but the filter stays in
warnings.filters after it returns, so every later TracerWarning of the session (a trace the student runs in the next
cell) is hidden too. Exercise 1's text: "ignore that category inside your function (with
warnings.catch_warnings())"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"trace_mismatches_impl": edited(
    "15-05", "trace_mismatches_impl",
    ("""    with warnings.catch_warnings():
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        with torch.no_grad():
            traced = torch.jit.trace(model, example)
            return [not torch.allclose(traced(x), model(x)) for x in inputs]""",
     """    warnings.simplefilter("ignore", torch.jit.TracerWarning)  # the branch warning is expected here
    with torch.no_grad():
        traced = torch.jit.trace(model, example)
        return [not torch.allclose(traced(x), model(x)) for x in inputs]"""))}
