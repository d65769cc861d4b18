"""trace_activations runs model(x) under torch.no_grad(), so the output it returns has no graph. Breaks 'output is what model(x) returned'."""
EXPECT = {'skipmlp': 'pass', 'param_groups': 'pass', 'convert': 'pass', 'lazy': 'pass', 'trace': 'fail'}

CELLS = {
    'trace_impl': '''
def trace_activations(model, x):
    records, handles = [], []

    def make(name):
        def hook(m, inp, out):
            records.append({"name": name, "shape": tuple(out.shape), "mean": float(out.mean()),
                            "std": float(out.std()), "finite": bool(torch.isfinite(out).all())})
        return hook

    try:
        for name, m in model.named_modules():
            if len(list(m.children())) == 0:
                handles.append(m.register_forward_hook(make(name)))
        with torch.no_grad():
            output = model(x)
    finally:
        for h in handles:
            h.remove()
    return output, records
''',
}
