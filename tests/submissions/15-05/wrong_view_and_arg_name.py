"""CondBranchyNet flattens with x.view(x.shape[0], -1), which raises on a non-contiguous batch that
BranchyNet's flatten(1) accepts; save_exported keys dynamic_shapes by the literal name "x" (the notebook's
models call their argument x), so it cannot export a model whose argument has another name."""
EXPECT = {"trace_mismatches": "pass", "cond_net": "fail", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "fail"}

CELLS = {
    "cond_net_impl": '''
class CondBranchyNet(nn.Module):
    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        x = torch.cond(x.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))
        return self.fc2(torch.relu(self.fc1(x.view(x.shape[0], -1))))
''',
    "save_load_impl": '''
def save_scripted(model: nn.Module, path: str) -> None:
    torch.jit.save(torch.jit.script(model), path)


def save_exported(model: nn.Module, example: torch.Tensor, path: str) -> None:
    batch = Dim("batch", min=1, max=1024)
    torch.export.save(torch.export.export(model, (example,), dynamic_shapes={"x": {0: batch}}), path)
''',
}
