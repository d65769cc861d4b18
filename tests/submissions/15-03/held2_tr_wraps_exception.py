"""Held-out round 2 (15-03 trace): an exception from forward is wrapped in a RuntimeError naming the tracer.

Hooks are removed in finally, but the caller receives RuntimeError("trace_activations: forward failed: ...")
instead of the exception forward raised (a ValueError stays a ValueError in the text: "the exception must
still reach the caller").
"""
EXPECT = {'trace': 'fail'}

CELLS = {
    'trace_impl': '''
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
        for name, m in model.named_modules():
            if next(m.children(), None) is None:
                handles.append(m.register_forward_hook(make_hook(name)))
        output = model(x)
    except Exception as e:
        raise RuntimeError(f"trace_activations: forward failed: {e}") from e
    finally:
        for h in handles:
            h.remove()
    return output, records
''',
}
