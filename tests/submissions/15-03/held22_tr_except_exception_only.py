"""Held-out round 22 (issue 39): trace_activations removes its hooks in `except Exception:` (then re-raises)
and after a normal return, not in `finally:`, so when forward raises something that is not an Exception
(KeyboardInterrupt from Ctrl-C while debugging, SystemExit, GeneratorExit) the hooks stay on the model.
Contradicts "Afterwards the model must carry exactly the hooks it had before, also when forward raises (the
exception must still reach the caller)"."""

CELLS = {
    "trace_impl": '''
def trace_activations(model, x):
    """Run model(x) once, recording per-leaf-module output statistics with temporary forward hooks."""
    records, handles = [], []

    def make_hook(name):
        def hook(module, inputs, output):
            out = output.detach()
            records.append({"name": name, "shape": tuple(out.shape), "mean": out.mean().item(),
                            "std": out.std().item(), "finite": bool(torch.isfinite(out).all())})
        return hook

    def remove_all():
        for h in handles:
            h.remove()

    for name, module in model.named_modules():
        if next(module.children(), None) is None:
            handles.append(module.register_forward_hook(make_hook(name)))
    try:
        output = model(x)
    except Exception:
        remove_all()
        raise
    remove_all()
    return output, records
''',
}
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "fail"}
