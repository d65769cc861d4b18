"""Breaks: "`norm`: `nn.LayerNorm(d_in)` if `norm=True`".

The block builds its norm as nn.LayerNorm(d_in, eps=1e-6), the transformer habit, instead of the
LayerNorm(d_in) the task names (eps 1e-5). Same parameters and state_dict keys; the outputs differ by a
few parts in a million on unit-scale inputs and by much more on inputs of small variance.
"""
EXPECT = {"skipmlp": "fail"}

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    """One residual block: shortcut(x) + relu(fc(norm(x)))."""

    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in, eps=1e-6) if norm else None
        self.fc = nn.Linear(d_in, d_out)
        self.proj = nn.Linear(d_in, d_out, bias=False) if d_in != d_out else None

    def forward(self, x, skip_branch=False):
        out = x if self.proj is None else self.proj(x)
        if not skip_branch:
            h = x if self.norm is None else self.norm(x)
            out = out + torch.relu(self.fc(h))
        return out


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
