"""Held-out round 28 (15-03 trace): wraps each leaf's `forward` (an instance attribute) instead of registering
forward hooks.

The text: trace_activations "runs `model(x)` once with a forward hook on every leaf module" and returns one
record "per leaf-module *call*". A wrapper on `module.forward` also fires where no hook does: a model whose
forward runs a leaf through its method, `self.act.forward(h)` (Module.__call__ and every forward hook bypassed),
gets a record for act that a forward-hook trace does not have (records fc, act, out instead of fc, out). (On a
leaf whose user hook replaces its output the wrapper also sees forward's own result, but a global forward hook,
accepted by unusual_correct, sees that too: not judged.) The attribute is deleted afterwards; with two
overlapping traces the outer `del` finds none left and raises AttributeError.
"""
EXPECT = {"trace": "fail"}

CELLS = {
    "trace_impl": '''
def trace_activations(model, x):
    """Run model(x) once, recording per-leaf-module output statistics."""
    records, patched = [], []

    def wrap(name, module):
        original = module.forward

        def forward(*args, **kwargs):
            output = original(*args, **kwargs)
            out = output.detach()
            records.append({"name": name, "shape": tuple(out.shape), "mean": out.mean().item(),
                            "std": out.std().item(), "finite": bool(torch.isfinite(out).all())})
            return output

        module.forward = forward
        patched.append(module)

    try:
        for name, module in model.named_modules():
            if next(module.children(), None) is None:
                wrap(name, module)
        output = model(x)
    finally:
        for module in patched:
            del module.forward
    return output, records
''',
}
