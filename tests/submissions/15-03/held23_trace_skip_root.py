"""Held-out round 23 (issue 39): trace_activations skips the root entry of named_modules() (name "") as hook
code often does, so a model that is itself a leaf (a bare nn.Linear, or a module whose layers sit in a plain
Python list and are therefore no children) gives no records at all. Contradicts: "with a forward hook on every
**leaf** module (a module without children, found through `model.named_modules()`)" and "one dict per
leaf-module *call*"."""

CELLS = {
    "trace_impl": '''
def trace_activations(model, x):
    records, handles = [], []

    def make_hook(name):
        def hook(module, inputs, output):
            out = output.detach()
            records.append({"name": name, "shape": tuple(out.shape), "mean": out.mean().item(),
                            "std": out.std().item(), "finite": bool(torch.isfinite(out).all())})
        return hook

    try:
        for name, m in model.named_modules():
            if name == "":
                continue
            if len(list(m.children())) == 0:
                handles.append(m.register_forward_hook(make_hook(name)))
        output = model(x)
    finally:
        for h in handles:
            h.remove()
    return output, records
''',
}
EXPECT = {"trace": "fail"}
