"""Wrong (held-out round 2): looks each name up while registering the hooks and protects only model(x) with
try/finally, so an unknown name after a known one raises KeyError with the first hook still attached
("after the call, no hook you added is left on any module")."""
EXPECT = {'forward_hooks': 'fail'}
CELLS = {"capture_impl": '''
def capture_activations(model: nn.Module, names: list[str], x: torch.Tensor) -> dict[str, torch.Tensor]:
    modules = dict(model.named_modules())
    acts, handles = {}, []

    def hook_for(name):
        def hook(module, inputs, output):
            acts[name] = output.detach()
        return hook

    for name in names:
        if name not in modules:
            raise KeyError(f"no submodule named {name!r}")
        handles.append(modules[name].register_forward_hook(hook_for(name)))
    try:
        model(x)
    finally:
        for h in handles:
            h.remove()
    return acts
'''}
