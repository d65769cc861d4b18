"""Held-out round 28, second pass (15-03 trace): held28_tr_wraps_forward with a careful restore.

Like held28_tr_wraps_forward, each leaf's `forward` is replaced by an instance attribute that records what the
module's own forward returned, instead of registering a forward hook; here whatever instance attribute was there
before (another trace's wrapper, when two traces overlap) is put back, so nested traces work and nothing is left.
The text: trace_activations "runs model(x) once with a forward hook on every leaf module", one record per
leaf-module call. On a model whose forward runs a leaf as `self.act.forward(h)` (no module call: no forward hook
fires) it records act too: names [fc, act, out] where a forward-hook trace gives [fc, out].
"""
EXPECT = {"trace": "fail"}

CELLS = {
    "trace_impl": '''
def trace_activations(model, x):
    """Run model(x) once, recording per-leaf-module output statistics."""
    records, saved = [], []

    def wrap(name, module):
        original = module.forward

        def forward(*args, **kwargs):
            output = original(*args, **kwargs)
            out = output.detach()
            records.append({"name": name, "shape": tuple(out.shape), "mean": out.mean().item(),
                            "std": out.std().item(), "finite": bool(torch.isfinite(out).all())})
            return output

        saved.append((module, module.__dict__.get("forward")))
        module.forward = forward

    try:
        for name, module in model.named_modules():
            if next(module.children(), None) is None:
                wrap(name, module)
        output = model(x)
    finally:
        for module, before in reversed(saved):
            if before is None:
                del module.forward
            else:
                module.forward = before
    return output, records
''',
}
