"""Gap-hunting round (issue 39, 2026-12-02): CondBranchyNet inverts each image whose own mean is above 0.5
(torch.where on a per-image mean), not the whole batch when the batch's mean is. Same logits on batches that
are all dark or all bright; other logits on a mixed batch. Breaks: "invert the batch when its mean pixel value
is above 0.5"."""
CELLS = {"cond_net_impl": '''
class CondBranchyNet(nn.Module):
    """BranchyNet without a Python `if` on a tensor value, so that torch.export keeps both sides of the branch."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        m = x.mean(dim=tuple(range(1, x.dim())), keepdim=True)
        x = torch.where(m > 0.5, 1.0 - x, x)
        return self.fc2(torch.relu(self.fc1(x.flatten(1))))
'''}
EXPECT = {"cond_net": "fail"}
