"""Known wrong: blocks kept in a plain Python list, so Module.__setattr__ never registers them.

The forward pass works and has the right shapes, but the blocks' parameters are missing from
parameters() and state_dict(): an optimizer would never train them and a checkpoint would not save them.
"""
EXPECT = {"skipmlp": "zero"}

CELLS = {"skipmlp_impl": '''
class SkipBlock(nn.Module):
    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in) if norm else nn.Identity()
        self.fc = nn.Linear(d_in, d_out)
        self.proj = nn.Linear(d_in, d_out, bias=False) if d_in != d_out else nn.Identity()

    def forward(self, x, skip_branch=False):
        shortcut = self.proj(x)
        return shortcut if skip_branch else shortcut + torch.relu(self.fc(self.norm(x)))


class SkipMLP(nn.Module):
    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        self.blocks = []
        d = in_features
        for w in widths:
            self.blocks.append(SkipBlock(d, w, norm))
            d = w
        self.head = nn.Linear(d, num_classes)

    def forward(self, x, drop=()):
        x = x.flatten(1)
        for i, b in enumerate(self.blocks):
            x = b(x, i in drop)
        return self.head(x)
'''}
