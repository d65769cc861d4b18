"""Known wrong: registers the hooks and never removes them: every later forward pass keeps logging
(into a list nobody reads) and the next trace stacks a second set of hooks."""
EXPECT = {"trace": "fail"}

CELLS = {"trace_impl": '''
def trace_activations(model, x):
    records = []
    for name, m in model.named_modules():
        if len(list(m.children())) == 0:
            m.register_forward_hook(lambda mod, inp, out, name=name: records.append(
                {"name": name, "shape": tuple(out.shape), "mean": out.mean().item(), "std": out.std().item(),
                 "finite": bool(out.isfinite().all())}))
    return model(x), records
'''}
