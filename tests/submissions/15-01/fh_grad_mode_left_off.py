"""Known-wrong capture_activations: turns autograd off "since no gradient is needed" with
torch.set_grad_enabled(False) instead of a `with torch.no_grad():` block, and never turns it back on,
so every later training step of the caller silently builds no graph."""
CELLS = {"capture_impl": '''
def capture_activations(model: nn.Module, names: list[str], x: torch.Tensor) -> dict[str, torch.Tensor]:
    modules = dict(model.named_modules())
    for n in names:
        if n not in modules:
            raise KeyError(n)
    captured, handles = {}, []
    torch.set_grad_enabled(False)  # only values are captured: no graph needed
    try:
        for n in names:
            handles.append(modules[n].register_forward_hook(
                lambda module, inputs, output, n=n: captured.__setitem__(n, output)))
        model(x)
    finally:
        for h in handles:
            h.remove()
    return captured
'''}
EXPECT = {"forward_hooks": "fail"}
