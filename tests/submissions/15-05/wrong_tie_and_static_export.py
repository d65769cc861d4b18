"""CondBranchyNet inverts when the mean is >= 0.5 (the text says strictly above); export_dynamic_batch
forgets dynamic_shapes, so the program only accepts the example's batch size."""
EXPECT = {"trace_mismatches": "pass", "cond_net": "fail", "export_dynamic": "fail", "op_inventory": "pass",
          "save_load": "pass"}

CELLS = {
    "cond_net_impl": '''
class CondBranchyNet(nn.Module):
    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        x = torch.cond(x.mean() >= 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))
        return self.fc2(torch.relu(self.fc1(x.flatten(1))))
''',
    "export_dynamic_impl": '''
def export_dynamic_batch(model: nn.Module, example: torch.Tensor, min_batch: int, max_batch: int):
    return torch.export.export(model, (example,))
''',
}
