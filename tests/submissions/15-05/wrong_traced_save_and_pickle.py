"""save_scripted traces instead of scripting (the branch of the example is baked in); save_exported
pickles the ExportedProgram with torch.save, which torch.export.load cannot read."""
EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "zero"}

CELLS = {
    "save_load_impl": '''
def save_scripted(model: nn.Module, path: str) -> None:
    example = torch.rand(2, 1, 28, 28) * 0.4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        torch.jit.save(torch.jit.trace(model, example), path)


def save_exported(model: nn.Module, example: torch.Tensor, path: str) -> None:
    batch = Dim("batch", min=1, max=1024)
    torch.save(torch.export.export(model, (example,), dynamic_shapes=({0: batch},)), path)
''',
}
