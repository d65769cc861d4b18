"""Guards the one-element case: std is 0.0 when the output has one element (to avoid the nan/warning). Breaks:
'std: output.std() with PyTorch's default correction' (nan for a single value). From the fifth blind round of
issue #19; caught by the [leaf] case of test_records_match_reference (a one-element output).
"""
EXPECT = {'skipmlp': 'pass', 'param_groups': 'pass', 'convert': 'pass', 'lazy': 'pass', 'trace': 'fail'}
BASE = "reference"

CELLS = {
    'trace_impl': '''
def trace_activations(model, x):
    """Run model(x) once, recording per-leaf-module output statistics with temporary forward hooks."""
    records, handles = [], []

    def make_hook(name):
        def hook(module, inputs, output):
            o = output.detach()
            records.append({"name": name, "shape": tuple(o.shape), "mean": o.mean().item(),
                            "std": o.std().item() if o.numel() > 1 else 0.0, "finite": bool(torch.isfinite(o).all())})
        return hook

    try:
        for name, m in model.named_modules():
            if next(m.children(), None) is None:
                handles.append(m.register_forward_hook(make_hook(name)))
        output = model(x)
    finally:
        for h in handles:
            h.remove()
    return output, records
''',
}
