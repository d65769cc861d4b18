"""Known-wrong implementations the suite must reject, one per task (the tasks differ, so they share a file).

- skipmlp (skipmlp_unconditional_layers): Known wrong: every block always gets a LayerNorm and a projection shortcut, and norm=False only
  skips *calling* the norm. The layers exist whether needed or not (extra state_dict keys, and the
  shortcut is a learned projection even between equal widths, so outputs differ too).
- param_groups (groups_missing_params): Known wrong: groups are collected from Linear/Conv layers only, so every normalisation parameter is
  silently left out of all groups (it would never train); frozen parameters are handed over too.
- convert (convert_wrong_reshape): Known wrong: the Linear weight is reshaped as if flatten were channel-last ((H, 7, 7, C) then
  permuted): every key and shape is right and strict loading succeeds, but the outputs differ. Also
  hard-codes 16 channels, which fails for other OldNet sizes.
- lazy (lazy_cast_after_dry_run): Known wrong order: dry run first, cast to the example's dtype afterwards. The float32 placeholders
  materialise as float32 and the float64 dry run fails; also leaves the model in eval mode.
- trace (trace_no_finally): Known wrong: removes its handles, but not in a finally block, so an exception inside forward
  leaves all hooks attached (exactly when you are debugging).
"""
EXPECT = {'skipmlp': 'fail', 'param_groups': 'fail', 'convert': 'fail', 'lazy': 'fail', 'trace': 'fail'}

CELLS = {
    'skipmlp_impl': '''
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
''',
    'param_groups_impl': '''
def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    decay, no_decay, head_decay, head_no_decay = [], [], [], []
    for mname, m in model.named_modules():
        if not isinstance(m, (nn.Linear, nn.Conv2d)):
            continue
        in_head = mname.startswith(head_prefix)
        if m.weight is not None:
            (head_decay if in_head else decay).append(m.weight)
        if m.bias is not None:
            (head_no_decay if in_head else no_decay).append(m.bias)
    return [{"params": decay, "lr": lr, "weight_decay": weight_decay},
            {"params": no_decay, "lr": lr, "weight_decay": 0.0},
            {"params": head_decay, "lr": lr * head_lr_mult, "weight_decay": weight_decay},
            {"params": head_no_decay, "lr": lr * head_lr_mult, "weight_decay": 0.0}]
''',
    'convert_impl': '''
def convert_checkpoint(old_state):
    renames = {"features.0.": "block1.conv.", "features.1.": "block1.bn.", "features.4.": "block2.conv.",
               "features.5.": "block2.bn.", "classifier.1.": "fc.", "classifier.4.": "out."}
    new = {}
    for key, value in old_state.items():
        if key.startswith("aux."):
            continue
        prefix = next(p for p in renames if key.startswith(p))
        nk = renames[prefix] + key[len(prefix):]
        if nk == "fc.weight":
            value = value.reshape(value.shape[0], 7, 7, 16).permute(0, 3, 1, 2)
        if nk == "out.weight":
            value = value.reshape(*value.shape, 1, 1)
        new[nk] = value
    return new
''',
    'lazy_impl': '''
def make_lazy_net(num_classes):
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    model.eval()
    with torch.no_grad():
        model(example.float())
    model.to(example.device, example.dtype)
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
''',
    'trace_impl': '''
def trace_activations(model, x):
    records, handles = [], []
    def hook(mod, inp, out):
        records.append({"name": names[mod], "shape": tuple(out.shape), "mean": out.mean().item(),
                        "std": out.std().item(), "finite": bool(torch.isfinite(out).all())})
    names = {m: n for n, m in model.named_modules() if not list(m.children())}
    for m in names:
        handles.append(m.register_forward_hook(hook))
    out = model(x)
    for h in handles:
        h.remove()
    return out, records
''',
}
