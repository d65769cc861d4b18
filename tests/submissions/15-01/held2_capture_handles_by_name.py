"""Wrong (held-out round 2): keeps the handles in a dict keyed by name, so a name asked for twice registers
two hooks and removes one ("no hook you added is left on any module")."""
EXPECT = {'forward_hooks': 'fail'}
CELLS = {"capture_impl": '''
def capture_activations(model: nn.Module, names: list[str], x: torch.Tensor) -> dict[str, torch.Tensor]:
    modules = dict(model.named_modules())
    missing = [n for n in names if n not in modules]
    if missing:
        raise KeyError(f"no submodule named {missing[0]!r}")
    acts, handles = {}, {}

    def hook_for(name):
        def hook(module, inputs, output):
            acts[name] = output.detach()
        return hook

    try:
        for name in names:
            handles[name] = modules[name].register_forward_hook(hook_for(name))
        model(x)
    finally:
        for h in handles.values():
            h.remove()
    return {n: acts[n] for n in names if n in acts}
'''}
