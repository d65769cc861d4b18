"""Held-out round 22 (issue 39): trace_activations computes "std" by hand in the output's own dtype,
sqrt(((out - out.mean()) ** 2).sum() / (n - 1)); in float16 a deviation above 256 squares past 65504 and the
std comes back inf where output.std() is finite (a few hundred). Contradicts '"std" (... output.std() with
PyTorch's default correction)'."""

CELLS = {
    "trace_impl": '''
def trace_activations(model, x):
    """Run model(x) once, recording per-leaf-module output statistics with temporary forward hooks."""
    records, handles = [], []

    def make_hook(name):
        def hook(module, inputs, output):
            out = output.detach()
            mean = out.mean()
            var = ((out - mean) ** 2).sum() / (out.numel() - 1)
            records.append({"name": name, "shape": tuple(out.shape), "mean": mean.item(),
                            "std": var.sqrt().item(), "finite": bool(torch.isfinite(out).all())})
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
