"""Held-out round 23 (issue 39): SkipMLP builds its dimension list by inserting in_features at the front of
`widths` itself (dims = widths; dims.insert(0, in_features)), so the caller's list grows by one entry and a
second model built from the same list gets an extra block. Contradicts: "`widths` is only read: the caller's
list stays as it was, so a second model built from it gets the same blocks"."""

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in) if norm else nn.Identity()
        self.fc = nn.Linear(d_in, d_out)
        self.proj = nn.Linear(d_in, d_out, bias=False) if d_in != d_out else nn.Identity()

    def forward(self, x, skip_branch=False):
        if skip_branch:
            return self.proj(x)
        return self.proj(x) + torch.relu(self.fc(self.norm(x)))


class SkipMLP(nn.Module):
    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        dims = widths
        dims.insert(0, in_features)
        self.blocks = nn.ModuleList([SkipBlock(dims[i], dims[i + 1], norm) for i in range(len(dims) - 1)])
        self.head = nn.Linear(dims[-1], num_classes)

    def forward(self, x, drop=()):
        if x.dim() > 2:
            x = x.flatten(1)
        for i, block in enumerate(self.blocks):
            x = block(x, skip_branch=i in drop)
        return self.head(x)
''',
}
EXPECT = {"skipmlp": "fail"}
