"""Held-out round 23 (issue 39): with norm=False each block keeps an nn.LayerNorm(d_in, elementwise_affine=False,
bias=False): no normalisation parameters (so the state_dict has no norm keys), but the block still normalises
its input. Contradicts: "if norm=False it has **no** normalisation parameters (use nn.Identity() or None)" read
with "Its output is shortcut(x) + relu(fc(norm(x)))": without a norm layer, norm(x) is x."""

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in, elementwise_affine=norm, bias=norm)
        self.fc = nn.Linear(d_in, d_out)
        self.proj = nn.Linear(d_in, d_out, bias=False) if d_in != d_out else nn.Identity()

    def forward(self, x, skip_branch=False):
        if skip_branch:
            return self.proj(x)
        return self.proj(x) + torch.relu(self.fc(self.norm(x)))


class SkipMLP(nn.Module):
    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        dims = [in_features, *widths]
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
