"""Three realistic slips in three different tasks; the other two tasks are the reference solution.

- skipmlp: ReLU applied after the residual addition (relu(shortcut + fc(norm(x)))), a common misreading
  of the block formula: structure is right, outputs are not.
- param_groups: only names ending in "bias" are exempted from weight decay; LayerNorm/BatchNorm/GroupNorm
  weights are still decayed.
- convert: only parameters are converted (keys ending in weight/bias): BatchNorm buffers are lost, so a
  strict load fails.
"""
EXPECT = {"skipmlp": "fail", "param_groups": "fail", "convert": "fail", "lazy": "pass", "trace": "pass"}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in) if norm else nn.Identity()
        self.fc = nn.Linear(d_in, d_out)
        self.proj = nn.Linear(d_in, d_out, bias=False) if d_in != d_out else nn.Identity()

    def forward(self, x, skip_branch=False):
        if skip_branch:
            return self.proj(x)
        return torch.relu(self.proj(x) + self.fc(self.norm(x)))


class SkipMLP(nn.Module):
    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        dims = [in_features] + list(widths)
        self.blocks = nn.ModuleList(SkipBlock(a, b, norm) for a, b in zip(dims[:-1], dims[1:]))
        self.head = nn.Linear(dims[-1], num_classes)

    def forward(self, x, drop=()):
        x = x.flatten(1)
        for i, b in enumerate(self.blocks):
            x = b(x, i in drop)
        return self.head(x)
''',
    "param_groups_impl": '''
def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    groups = {}
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        head = name.startswith(head_prefix + ".")
        decay = not name.endswith("bias")
        groups.setdefault((head, decay), []).append(p)
    return [{"params": ps, "lr": lr * (head_lr_mult if head else 1.0), "weight_decay": weight_decay if decay else 0.0}
            for (head, decay), ps in groups.items()]
''',
    "convert_impl": '''
def convert_checkpoint(old_state):
    renames = {"features.0": "block1.conv", "features.1": "block1.bn", "features.4": "block2.conv",
               "features.5": "block2.bn", "classifier.1": "fc", "classifier.4": "out"}
    new = {}
    for old, newp in renames.items():
        for leaf in ("weight", "bias"):
            new[f"{newp}.{leaf}"] = old_state[f"{old}.{leaf}"]
    w = new["fc.weight"]
    new["fc.weight"] = w.reshape(w.shape[0], -1, 7, 7)
    new["out.weight"] = new["out.weight"][:, :, None, None]
    return new
''',
}
