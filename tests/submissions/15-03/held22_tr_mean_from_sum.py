"""Held-out round 22 (issue 39): trace_activations computes "mean" as output.sum() / output.numel(); in float16
the sum of many large finite values overflows to inf although output.mean() (which PyTorch accumulates in
float32) is finite, so "mean" says inf. Contradicts '"mean" and "std" (Python floats: output.mean(),
output.std() ...)'."""

CELLS = {
    "trace_impl": '''
def trace_activations(model, x):
    """Run model(x) once, recording per-leaf-module output statistics with temporary forward hooks."""
    records, handles = [], []

    def make_hook(name):
        def hook(module, inputs, output):
            out = output.detach()
            n = out.numel()
            mean = out.sum().item() / n if n else float("nan")
            records.append({"name": name, "shape": tuple(out.shape), "mean": float(mean),
                            "std": out.std().item(), "finite": bool(torch.isfinite(out).all())})
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
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "fail"}
