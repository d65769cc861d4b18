"""Held-out round 2 (15-03 skipmlp): drop turned into a per-block mask by indexing, mask[i] = True.

"For a block whose index is in drop" use only its shortcut: an index no block has drops nothing. Here
drop=[len(widths)] raises IndexError, and drop=[-1] drops the last block (whose index is len-1, not -1).
"""
EXPECT = {'skipmlp': 'fail'}

CELLS = {
    'skipmlp_impl': '''
class SkipBlock(nn.Module):
    """One residual block: shortcut(x) + relu(fc(norm(x)))."""

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
    """Residual MLP with optional LayerNorm, projection shortcuts where widths change, and droppable blocks."""

    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        dims = [in_features, *widths]
        self.blocks = nn.ModuleList(SkipBlock(a, b, norm) for a, b in zip(dims[:-1], dims[1:]))
        self.head = nn.Linear(dims[-1], num_classes)

    def forward(self, x, drop=()):
        if x.dim() > 2:
            x = x.flatten(1)
        mask = [False] * len(self.blocks)
        for i in drop:
            mask[i] = True
        for block, skip in zip(self.blocks, mask):
            x = block(x, skip_branch=skip)
        return self.head(x)
''',
}
