"""Held-out round 2 (15-03 skipmlp): the head is built from widths[-1] unconditionally.

The text: head is Linear(last_width, num_classes) where last_width is widths[-1], "or in_features if widths
is empty". SkipMLP(in_features, [], num_classes) raises IndexError here instead of being a plain linear head.
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
        self.head = nn.Linear(widths[-1], num_classes)

    def forward(self, x, drop=()):
        if x.dim() > 2:
            x = x.flatten(1)
        drop = set(drop)
        for i, block in enumerate(self.blocks):
            x = block(x, skip_branch=i in drop)
        return self.head(x)
''',
}
