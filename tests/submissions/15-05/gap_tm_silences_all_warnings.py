"""Gap-hunting round (issue 39, 2026-12-02): trace_mismatches silences every warning inside its
catch_warnings block, not only TracerWarning, so a model's own warnings vanish too. Breaks: "ignore that
category inside your function (with `warnings.catch_warnings()`)"."""
CELLS = {"trace_mismatches_impl": '''
def trace_mismatches(model: nn.Module, example: torch.Tensor, inputs: list) -> list:
    """For each input: True where the trace of ``model`` on ``example`` disagrees with eager ``model``."""
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        traced = torch.jit.trace(model, example)
        return [not torch.allclose(traced(x), model(x)) for x in inputs]
'''}
EXPECT = {"trace_mismatches": "fail"}
