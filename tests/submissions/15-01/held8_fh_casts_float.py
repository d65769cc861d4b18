"""Wrong (held-out round 8): stores output.detach().float(), so a float64 (or float16) model's activations come
back as float32, not as that submodule's output ("to that submodule's output, detached")."""
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
            captured[name] = output.detach().float()
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
