"""Breaks: "`records` a list with one dict per leaf-module *call* ... with keys `"name"`, `"shape"`,
`"mean"`, `"std"` and `"finite"`", with the section's warning that records holding a tensor keep its
autograd graph alive.

Each record also stores the layer's output tensor under "output" (handy for plotting), so the
returned records keep every activation and, when the input requires a gradient, the whole graph.
"""
EXPECT = {"trace": "fail"}

CELLS = {
    "trace_impl": '''
def trace_activations(model, x):
    """Run model(x) once, recording per-leaf-module output statistics with temporary forward hooks."""
    records, handles = [], []

    def make_hook(name):
        def hook(module, inputs, output):
            records.append({"name": name, "shape": tuple(output.shape), "mean": output.mean().item(),
                            "std": output.std().item(), "finite": bool(torch.isfinite(output).all()),
                            "output": output})
        return hook

    try:
        for name, module in model.named_modules():
            if next(module.children(), None) is None:
                handles.append(module.register_forward_hook(make_hook(name)))
        output = model(x)
    finally:
        for h in handles:
            h.remove()
    return output, records
''',
}
