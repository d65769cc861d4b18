"""Held-out round 23 (issue 39): trace_activations first computes the output with no hooks, then registers the
hooks and runs the model a second time under torch.no_grad() to collect the records "without building a
graph". The model runs twice: BatchNorm in training mode updates its statistics twice, Dropout draws two
different masks (the records describe another pass than the returned output). Contradicts:
"`trace_activations(model, x)` runs `model(x)` once with a forward hook on every **leaf** module"."""

CELLS = {
    "trace_impl": '''
def trace_activations(model, x):
    output = model(x)
    records, handles = [], []

    def make_hook(name):
        def hook(module, inputs, out):
            records.append({"name": name, "shape": tuple(out.shape), "mean": out.mean().item(),
                            "std": out.std().item(), "finite": bool(torch.isfinite(out).all())})
        return hook

    try:
        for name, m in model.named_modules():
            if len(list(m.children())) == 0:
                handles.append(m.register_forward_hook(make_hook(name)))
        with torch.no_grad():
            model(x)
    finally:
        for h in handles:
            h.remove()
    return output, records
''',
}
EXPECT = {"trace": "fail"}
