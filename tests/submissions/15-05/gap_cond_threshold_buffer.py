"""Gap-hunting round (issue 39, 2026-12-02): CondBranchyNet keeps its threshold as a registered buffer, so its
state_dict has a key BranchyNet's lacks and `CondBranchyNet().load_state_dict(BranchyNet().state_dict())`
raises (missing key "threshold"). Breaks: "It must have the same parameters under the same names and shapes
as `BranchyNet` ... so that `CondBranchyNet().load_state_dict(BranchyNet().state_dict())` works"."""
CELLS = {"cond_net_impl": '''
class CondBranchyNet(nn.Module):
    """BranchyNet without a Python `if` on a tensor value, so that torch.export keeps both sides of the branch."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)
        self.register_buffer("threshold", torch.tensor(0.5))

    def forward(self, x):
        x = torch.cond(x.mean() > self.threshold, lambda t: 1.0 - t, lambda t: t.clone(), (x,))
        return self.fc2(torch.relu(self.fc1(x.flatten(1))))
'''}
EXPECT = {"cond_net": "fail"}
