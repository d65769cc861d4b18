"""Wrong (held-out round 8): hooks every submodule and returns all their outputs, so the dict also holds names
nobody asked for ("returns a dict mapping each requested submodule name ... to that submodule's output")."""
EXPECT = {'forward_hooks': 'fail'}
CELLS = {"capture_impl": '''
def capture_activations(model: nn.Module, names: list[str], x: torch.Tensor) -> dict[str, torch.Tensor]:
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
        for n, m in modules.items():
            handles.append(m.register_forward_hook(make_hook(n)))
        model(x)
    finally:
        for h in handles:
            h.remove()
    return captured
'''}
