"""Known wrong: removes its handles, but not in a finally block, so an exception inside forward
leaves all hooks attached (exactly when you are debugging)."""
EXPECT = {"trace": "fail"}

CELLS = {"trace_impl": '''
def trace_activations(model, x):
    records, handles = [], []
    def hook(mod, inp, out):
        records.append({"name": names[mod], "shape": tuple(out.shape), "mean": out.mean().item(),
                        "std": out.std().item(), "finite": bool(torch.isfinite(out).all())})
    names = {m: n for n, m in model.named_modules() if not list(m.children())}
    for m in names:
        handles.append(m.register_forward_hook(hook))
    out = model(x)
    for h in handles:
        h.remove()
    return out, records
'''}
