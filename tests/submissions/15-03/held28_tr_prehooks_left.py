"""Held-out round 28 (15-03 trace): removes its forward hooks but leaves forward PRE-hooks behind.

The text: "Afterwards the model must carry exactly the hooks it had before". This version registers a
forward pre-hook on every leaf (it pushes the leaf's name; the forward hook pops it) and keeps only the
forward-hook handles, so after one call every leaf has one more entry in `_forward_pre_hooks`, and each later
forward pass (traced or not) still runs them and grows a list. The records and `_forward_hooks` are right.
Wrong on any model, e.g. nn.Sequential(nn.Linear(4, 3), nn.ReLU()): `len(model[0]._forward_pre_hooks)` is 1
afterwards instead of 0.
"""
EXPECT = {"trace": "fail"}

CELLS = {
    "trace_impl": '''
def trace_activations(model, x):
    """Run model(x) once, recording per-leaf-module output statistics with temporary forward hooks."""
    records, handles, pending = [], [], []

    def pre_hook(module, inputs):
        pending.append(leaf_names[module])

    def hook(module, inputs, output):
        name = pending.pop()
        out = output.detach()
        records.append({"name": name, "shape": tuple(out.shape), "mean": out.mean().item(),
                        "std": out.std().item(), "finite": bool(torch.isfinite(out).all())})

    leaf_names = {}
    try:
        for name, module in model.named_modules():
            if next(module.children(), None) is None:
                leaf_names[module] = name
                module.register_forward_pre_hook(pre_hook)
                handles.append(module.register_forward_hook(hook))
        output = model(x)
    finally:
        for h in handles:
            h.remove()
    return output, records
''',
}
