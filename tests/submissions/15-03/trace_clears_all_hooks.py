"""Known wrong: cleans up with module._forward_hooks.clear(), which also deletes hooks that other code
registered; records are keyed by module name, so a module called twice is logged once."""
EXPECT = {"trace": "fail"}

CELLS = {"trace_impl": '''
def trace_activations(model, x):
    stats = {}
    leaves = [(n, m) for n, m in model.named_modules() if not list(m.children())]
    for n, m in leaves:
        m.register_forward_hook(lambda mod, inp, out, n=n: stats.__setitem__(n, {
            "name": n, "shape": tuple(out.shape), "mean": out.mean().item(), "std": out.std().item(),
            "finite": bool(torch.isfinite(out).all())}))
    try:
        out = model(x)
    finally:
        for _, m in leaves:
            m._forward_hooks.clear()
    return out, list(stats.values())
'''}
