"""Held-out round 11: the TracerWarning filter is installed once, at module level in the solution cell
(warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)), not inside the function. Calling
trace_mismatches prints nothing and the filter list does not change across the call, but every later trace in the
process is silenced too. Exercise 1's text: "ignore that category inside your function (with
warnings.catch_warnings())"."""

EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"trace_mismatches_impl": '''warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)


def trace_mismatches(model: nn.Module, example: torch.Tensor, inputs: list) -> list:
    """For each input: True where the trace of ``model`` on ``example`` disagrees with eager ``model``."""
    with torch.no_grad():
        traced = torch.jit.trace(model, example)
        return [not torch.allclose(traced(x), model(x)) for x in inputs]
'''}
