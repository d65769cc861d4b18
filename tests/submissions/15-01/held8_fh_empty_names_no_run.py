"""Wrong (held-out round 8): returns {} at once when names is empty, so model(x) never runs (in training mode a
BatchNorm's running statistics are not updated) ("runs model(x) once and returns a dict")."""
EXPECT = {'forward_hooks': 'fail'}
CELLS = {"capture_impl": '''
def capture_activations(model: nn.Module, names: list[str], x: torch.Tensor) -> dict[str, torch.Tensor]:
    if not names:
        return {}
    modules = dict(model.named_modules())
    for n in names:
        if n not in modules:
            raise KeyError(n)
    captured, handles = {}, []

    def make_hook(name):
        def hook(module, inputs, output):
            captured[name] = output.detach()
        return hook

    try:
        for n in names:
            handles.append(modules[n].register_forward_hook(make_hook(n)))
        model(x)
    finally:
        for h in handles:
            h.remove()
    return captured
'''}
