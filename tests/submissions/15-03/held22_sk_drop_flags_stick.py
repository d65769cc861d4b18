"""Held-out round 22 (issue 39): SkipMLP.forward marks the blocks named in `drop` with a flag on the block
and never clears it, so a block dropped in one call stays dropped in every later call (state kept across
calls). Contradicts "forward(x, drop=()) ... for a block whose index is in drop, use only its shortcut":
a later call with drop=() must run every branch."""

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    """One residual block: shortcut(x) + relu(fc(norm(x)))."""

    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in) if norm else nn.Identity()
        self.fc = nn.Linear(d_in, d_out)
        self.proj = nn.Linear(d_in, d_out, bias=False) if d_in != d_out else nn.Identity()
        self.dropped = False

    def forward(self, x, skip_branch=False):
        shortcut = self.proj(x)
        if skip_branch or self.dropped:
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
        for i in drop:
            if 0 <= i < len(self.blocks):
                self.blocks[i].dropped = True
        for block in self.blocks:
            x = block(x)
        return self.head(x)
''',
}
EXPECT = {"skipmlp": "fail", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}
