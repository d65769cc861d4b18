"""Gap-hunting round (issue 39, 2026-12-02): save_exported names the forward argument `x` in dynamic_shapes,
so a model whose forward argument has another name cannot be exported. Breaks: "export `model` (one tensor
argument, which may have any name)"."""
CELLS = {"save_load_impl": '''
def save_scripted(model: nn.Module, path: str) -> None:
    """Script ``model`` and write it to ``path`` with torch.jit.save."""
    torch.jit.save(torch.jit.script(model), path)


def save_exported(model: nn.Module, example: torch.Tensor, path: str) -> None:
    """Export ``model`` with a dynamic batch (1 to 1024) and write it to ``path`` with torch.export.save."""
    batch = Dim("batch", min=1, max=1024)
    ep = torch.export.export(model, (example,), dynamic_shapes={"x": {0: batch}})
    torch.export.save(ep, path)
'''}
EXPECT = {"save_load": "fail"}
