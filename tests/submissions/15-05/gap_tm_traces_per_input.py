"""Gap-hunting round (issue 39, 2026-12-02): trace_mismatches traces the model again, on `example`, for every
input. Breaks: "Trace `model` once, on `example`, with `torch.jit.trace`"."""
CELLS = {"trace_mismatches_impl": '''
def trace_mismatches(model: nn.Module, example: torch.Tensor, inputs: list) -> list:
    """For each input: True where the trace of ``model`` on ``example`` disagrees with eager ``model``."""
    flags = []
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        for x in inputs:
            traced = torch.jit.trace(model, example)
            flags.append(not torch.allclose(traced(x), model(x)))
    return flags
'''}
EXPECT = {"trace_mismatches": "fail"}
