"""Held-out round 22 (issue 39): SkipMLP.__init__ builds its list of dimensions by inserting in_features into
the caller's own `widths` list (dims = widths; dims.insert(0, in_features)), so the caller's list changes and
a second SkipMLP built from the same list gets an extra block. Contradicts "holding one block per entry of
widths" (for the second model built from the caller's list) and the caller's argument is changed."""

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    """One residual block: shortcut(x) + relu(fc(norm(x)))."""

    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in) if norm else nn.Identity()
        self.fc = nn.Linear(d_in, d_out)
        self.proj = nn.Linear(d_in, d_out, bias=False) if d_in != d_out else nn.Identity()

    def forward(self, x, skip_branch=False):
        shortcut = self.proj(x)
        if skip_branch:
            return shortcut
        return shortcut + torch.relu(self.fc(self.norm(x)))


class SkipMLP(nn.Module):
    """Residual MLP with optional LayerNorm, projection shortcuts where widths change, and droppable blocks."""

    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        dims = widths if isinstance(widths, list) else list(widths)
        dims.insert(0, in_features)
        self.blocks = nn.ModuleList(SkipBlock(a, b, norm) for a, b in zip(dims[:-1], dims[1:]))
        self.head = nn.Linear(dims[-1], num_classes)

    def forward(self, x, drop=()):
        if x.dim() > 2:
            x = x.flatten(1)
        drop = set(drop)
        for i, block in enumerate(self.blocks):
            x = block(x, skip_branch=i in drop)
        return self.head(x)
''',
}
EXPECT = {"skipmlp": "fail", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}
