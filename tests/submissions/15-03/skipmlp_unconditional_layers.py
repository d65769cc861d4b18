"""Known wrong: every block always gets a LayerNorm and a projection shortcut, and norm=False only
skips *calling* the norm. The layers exist whether needed or not (extra state_dict keys, and the
shortcut is a learned projection even between equal widths, so outputs differ too)."""
EXPECT = {"skipmlp": "fail"}

CELLS = {"skipmlp_impl": '''
class SkipBlock(nn.Module):
    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.use_norm = norm
        self.norm = nn.LayerNorm(d_in)
        self.fc = nn.Linear(d_in, d_out)
        self.proj = nn.Linear(d_in, d_out, bias=False)

    def forward(self, x, skip_branch=False):
        shortcut = self.proj(x)
        if skip_branch:
            return shortcut
        h = self.norm(x) if self.use_norm else x
        return shortcut + torch.relu(self.fc(h))


class SkipMLP(nn.Module):
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
        for i, b in enumerate(self.blocks):
            x = b(x, i in drop)
        return self.head(x)
'''}
