"""Held-out round 22 (issue 39): SkipMLP.forward drops the grayscale channel with x.squeeze() before
flattening, which also squeezes the batch dimension of a batch of ONE image (1, 1, H, W) -> (H, W), so a
single image is read as H examples of width W. Contradicts "x is always a batch: a single example comes
as (1, in_features)" / "flatten everything but the batch dimension first"."""

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
            x = x.squeeze().flatten(1)  # (N, 1, H, W) grayscale -> (N, H, W) -> (N, H*W)
        drop = set(drop)
        for i, block in enumerate(self.blocks):
            x = block(x, skip_branch=i in drop)
        return self.head(x)
''',
}
EXPECT = {"skipmlp": "fail", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}
