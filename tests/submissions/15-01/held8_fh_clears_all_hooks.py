"""Wrong (held-out round 8): cleans up by clearing every module's _forward_hooks, which also deletes hooks the
caller had registered before the call, so the model computes something else afterwards ("no hook you added
is left on any module": only yours go; the model's output is unchanged by your hooks)."""
EXPECT = {'forward_hooks': 'fail'}
CELLS = {"capture_impl": '''
def capture_activations(model: nn.Module, names: list[str], x: torch.Tensor) -> dict[str, torch.Tensor]:
    modules = dict(model.named_modules())
    for n in names:
        if n not in modules:
            raise KeyError(n)
    captured = {}

    def make_hook(name):
        def hook(module, inputs, output):
            captured[name] = output.detach()
        return hook

    try:
        for n in names:
            modules[n].register_forward_hook(make_hook(n))
        model(x)
    finally:
        for m in model.modules():
            m._forward_hooks.clear()
    return captured
'''}
