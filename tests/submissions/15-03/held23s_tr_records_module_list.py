"""Held-out round 23, second pass (issue 39; not counted): trace_activations collects into one module-level
list that its hooks append to, cleared at the start of each call and returned itself. Every call hands back the
same list object, so the next call empties and refills the records an earlier call returned (the notebook's own
demo keeps `before` and `after` from two calls: both would show the second run). Contradicts: "returns
`(output, records)`: ... `records` a list with one dict per leaf-module *call*" (the calls of that run)."""

CELLS = {
    "trace_impl": '''
_RECORDS = []


def _make_hook(name):
    def hook(module, inputs, output):
        out = output.detach()
        _RECORDS.append({"name": name, "shape": tuple(out.shape), "mean": out.mean().item(),
                         "std": out.std().item(), "finite": bool(torch.isfinite(out).all())})
    return hook


def trace_activations(model, x):
    _RECORDS.clear()
    handles = []
    try:
        for name, m in model.named_modules():
            if len(list(m.children())) == 0:
                handles.append(m.register_forward_hook(_make_hook(name)))
        output = model(x)
    finally:
        for h in handles:
            h.remove()
    return output, _RECORDS
''',
}
EXPECT = {"trace": "fail"}
