"""Held-out round 2 (15-03 trace): the model is run as model.forward(x) rather than model(x).

The leaves are still called through __call__, so their hooks fire, but the model's own hooks do not run:
a forward hook a user registered on the model itself is skipped and the output differs from model(x), and
when the model is itself a leaf (a bare nn.Linear) its hook never fires, so no record is made.
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
        output = model.forward(x)
    finally:
        for h in handles:
            h.remove()
    return output, records
''',
}
