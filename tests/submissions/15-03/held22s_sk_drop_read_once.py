"""Held-out round 22, second pass (not counted): SkipMLP.forward reads `drop` once, on its first call, and
keeps that set on the model (self._drop = getattr(self, "_drop", None) or set(drop)), so every later call
drops the first call's blocks whatever it is given. Contradicts "for a block whose index is in drop, use
only its shortcut" for every call after the first."""

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
        self.blocks = nn.ModuleList()
        d = in_features
        for w in widths:
            self.blocks.append(SkipBlock(d, w, norm))
            d = w
        self.head = nn.Linear(d, num_classes)

    def forward(self, x, drop=()):
        if x.dim() > 2:
            x = x.flatten(1)
        self._drop = getattr(self, "_drop", None) or set(drop)
        for i, block in enumerate(self.blocks):
            x = block(x, skip_branch=i in self._drop)
        return self.head(x)
''',
}
EXPECT = {"skipmlp": "fail", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}
