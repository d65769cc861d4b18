"""Breaks Exercise 5 'a hook on every leaf module ... found through model.named_modules()': the root entry is skipped, so a model that is itself a leaf (e.g. a bare nn.Linear) produces no records."""
EXPECT = {'skipmlp': 'pass', 'param_groups': 'pass', 'convert': 'pass', 'lazy': 'pass', 'trace': 'fail'}
BASE = "reference"
CELLS = {
    'trace_impl': '''def trace_activations(model, x):
    """Run model(x) once, recording per-leaf-module output statistics with temporary forward hooks."""
    records, handles = [], []

    def make_hook(name):
        def hook(module, inputs, output):
            o = output.detach()
            records.append({"name": name, "shape": tuple(o.shape), "mean": o.mean().item(),
                            "std": o.std().item(), "finite": bool(torch.isfinite(o).all())})
        return hook

    try:
        for name, mod in list(model.named_modules())[1:]:
            if next(iter(mod.children()), None) is None:
                handles.append(mod.register_forward_hook(make_hook(name)))
        output = model(x)
    finally:
        for h in handles:
            h.remove()
    return output, records
''',
}
