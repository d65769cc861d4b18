"""trace_mismatches compares with torch.equal instead of torch.allclose (default tolerances): a trace whose
logits differ from the eager model's only by rounding is reported as a mismatch."""
EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}

CELLS = {
    "trace_mismatches_impl": '''
def trace_mismatches(model: nn.Module, example: torch.Tensor, inputs: list) -> list:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        with torch.no_grad():
            traced = torch.jit.trace(model, example)
            return [not torch.equal(traced(x), model(x)) for x in inputs]
''',
}
