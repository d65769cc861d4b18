"""trace_mismatches calls model.eval() before tracing: it runs a model in training mode in another mode than
the one it was given (with dropout, the trace and the eager call then agree instead of drawing different
masks) and leaves the caller's model switched to eval mode."""
EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}

CELLS = {
    "trace_mismatches_impl": '''
def trace_mismatches(model: nn.Module, example: torch.Tensor, inputs: list) -> list:
    model.eval()
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        traced = torch.jit.trace(model, example)
        return [not torch.allclose(traced(x), model(x)) for x in inputs]
''',
}
