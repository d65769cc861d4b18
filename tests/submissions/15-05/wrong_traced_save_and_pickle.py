"""save_scripted traces instead of scripting (the branch of the example is baked in); save_exported
pickles the ExportedProgram with torch.save, which torch.export.load cannot read. save_load is "fail", not "zero",
since held-out round 27: on a model whose code cannot keep one batch range (test_exported_no_narrowed_program), its
torch.export.export with Dim(min=1, max=1024) raises before anything is saved, exactly as the reference's does."""
EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "fail"}

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
