"""CondBranchyNet inverts branch-free with |x - flag| (flag = 1.0 when the mean is above 0.5): equal to
1 - x and to x only for pixels in [0, 1], so a normalised batch with negative pixels or pixels above 1 gets
other logits than BranchyNet's."""
EXPECT = {"trace_mismatches": "pass", "cond_net": "fail", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}

CELLS = {
    "cond_net_impl": '''
class CondBranchyNet(nn.Module):
    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        flag = (x.mean() > 0.5).to(x.dtype)
        x = (x - flag).abs()
        return self.fc2(torch.relu(self.fc1(x.flatten(1))))
''',
}
