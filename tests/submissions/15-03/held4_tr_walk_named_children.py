"""Breaks: "a forward hook on every **leaf** module (a module without children, found through
`model.named_modules()`)" when one leaf module is registered under two parents.

The leaves are found by a recursive walk over named_children() that builds the names itself. Unlike
named_modules(), that walk does not skip a module it has already seen in another branch, so a leaf
shared by two sub-blocks gets two hooks: every call of it is recorded twice, under both names.
"""
EXPECT = {"trace": "fail"}

CELLS = {
    "trace_impl": '''
def _leaves(module, prefix=""):
    children = list(module.named_children())
    if not children:
        yield prefix, module
    for name, child in children:
        yield from _leaves(child, f"{prefix}.{name}" if prefix else name)


def trace_activations(model, x):
    """Run model(x) once, recording per-leaf-module output statistics with temporary forward hooks."""
    records, handles = [], []

    def make_hook(name):
        def hook(module, inputs, output):
            records.append({"name": name, "shape": tuple(output.shape), "mean": output.mean().item(),
                            "std": output.std().item(), "finite": bool(torch.isfinite(output).all())})
        return hook

    try:
        for name, leaf in _leaves(model):
            handles.append(leaf.register_forward_hook(make_hook(name)))
        output = model(x)
    finally:
        for h in handles:
            h.remove()
    return output, records
''',
}
