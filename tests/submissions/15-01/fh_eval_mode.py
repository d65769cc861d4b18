"""Known-wrong capture_activations: switches the model to eval() "to capture cleanly" and never switches it
back, so a BatchNorm model in training mode gives running-statistics activations and stays in eval mode."""
CELLS = {"capture_impl": '''
def capture_activations(model: nn.Module, names: list[str], x: torch.Tensor) -> dict[str, torch.Tensor]:
    modules = dict(model.named_modules())
    for n in names:
        if n not in modules:
            raise KeyError(n)
    captured, handles = {}, []
    model.eval()
    try:
        for n in names:
            handles.append(modules[n].register_forward_hook(
                lambda m, i, o, n=n: captured.__setitem__(n, o.detach())))
        with torch.no_grad():
            model(x)
    finally:
        for h in handles:
            h.remove()
    return captured
'''}
EXPECT = {"forward_hooks": "fail"}
