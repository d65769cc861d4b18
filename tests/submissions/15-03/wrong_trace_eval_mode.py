"""trace_activations switches the model to eval() before running it and leaves it there: a BatchNorm in training mode then uses its running statistics, so the output is not what model(x) returns. Breaks 'output is what model(x) returned'. Found by the third blind round (issue #19)."""
EXPECT = {'skipmlp': 'pass', 'param_groups': 'pass', 'convert': 'pass', 'lazy': 'pass', 'trace': 'fail'}

CELLS = {
    'trace_impl': '''
def trace_activations(model, x):
    records, handles = [], []

    def make_hook(name):
        def hook(module, inputs, output):
            o = output.detach()
            records.append({"name": name, "shape": tuple(o.shape), "mean": o.mean().item(),
                            "std": o.std().item(), "finite": bool(torch.isfinite(o).all())})
        return hook

    try:
        for name, mod in model.named_modules():
            if next(mod.children(), None) is None:
                handles.append(mod.register_forward_hook(make_hook(name)))
        model.eval()
        output = model(x)
    finally:
        for h in handles:
            h.remove()
    return output, records
''',
}
