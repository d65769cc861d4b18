"""Held-out round 28 (15-03 trace): re-raises a NEW exception of the same type with added context.

The text: hooks must be removed "also when `forward` raises (the exception must still reach the caller)".
This version catches the exception and raises `type(e)(f"trace_activations: {e}") from e`: the caller gets a
different exception object (same class) whose args/message changed and whose extra attributes are gone; for
an exception class whose constructor needs other arguments it raises TypeError instead. Wrong on a model whose
forward raises e.g. `err = ValueError("boom"); err.code = 7; raise err`: the caller's exception is not `err`,
its args are ("trace_activations: boom",) and it has no `code`.
"""
EXPECT = {"trace": "fail"}

CELLS = {
    "trace_impl": '''
def trace_activations(model, x):
    """Run model(x) once, recording per-leaf-module output statistics with temporary forward hooks."""
    records, handles = [], []

    def make_hook(name):
        def hook(module, inputs, output):
            out = output.detach()
            records.append({"name": name, "shape": tuple(out.shape), "mean": out.mean().item(),
                            "std": out.std().item(), "finite": bool(torch.isfinite(out).all())})
        return hook

    try:
        for name, module in model.named_modules():
            if next(module.children(), None) is None:
                handles.append(module.register_forward_hook(make_hook(name)))
        output = model(x)
    except Exception as e:
        raise type(e)(f"trace_activations: {e}") from e
    finally:
        for h in handles:
            h.remove()
    return output, records
''',
}
