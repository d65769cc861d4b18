"""Gap-hunting round (issue 39, 2026-12-02): trace_mismatches compares with torch.allclose(..., equal_nan=True),
so an input whose logits are NaN in both the trace and the eager model is not flagged. Breaks: "True where
`torch.allclose(traced_output, eager_output)` (default tolerances) is `False`" (allclose's default says NaN != NaN)."""
CELLS = {"trace_mismatches_impl": '''
def trace_mismatches(model: nn.Module, example: torch.Tensor, inputs: list) -> list:
    """For each input: True where the trace of ``model`` on ``example`` disagrees with eager ``model``."""
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        traced = torch.jit.trace(model, example)
        return [not torch.allclose(traced(x), model(x), equal_nan=True) for x in inputs]
'''}
EXPECT = {"trace_mismatches": "fail"}
