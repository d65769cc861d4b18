"""Breaks: "for a block whose index is in `drop`, use **only its shortcut** (skip the branch)", with
"Autograd records only what actually ran, so gradients automatically follow the path taken".

A dropped block still runs its branch and multiplies it by 0.0. Where the branch is finite the output
is the same, but the branch's parameters receive zero gradients instead of none (the graph holds the
skipped path), and a branch that overflows to inf turns the output into NaN (0 * inf).
"""
EXPECT = {"skipmlp": "fail"}

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    """One residual block: shortcut(x) + relu(fc(norm(x)))."""

    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in) if norm else nn.Identity()
        self.fc = nn.Linear(d_in, d_out)
        self.proj = nn.Linear(d_in, d_out, bias=False) if d_in != d_out else None

    def forward(self, x, skip_branch=False):
        shortcut = x if self.proj is None else self.proj(x)
        branch = torch.relu(self.fc(self.norm(x)))
        gate = 0.0 if skip_branch else 1.0
        return shortcut + gate * branch


class SkipMLP(nn.Module):
    """Residual MLP with optional LayerNorm, projection shortcuts where widths change, and droppable blocks."""

    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        dims = [in_features, *widths]
        self.blocks = nn.ModuleList(SkipBlock(a, b, norm) for a, b in zip(dims[:-1], dims[1:]))
        self.head = nn.Linear(dims[-1], num_classes)

    def forward(self, x, drop=()):
        if x.dim() > 2:
            x = x.reshape(x.shape[0], -1)
        for i, block in enumerate(self.blocks):
            x = block(x, skip_branch=i in drop)
        return self.head(x)
''',
}
