"""Known-wrong implementations written from the notebook text (each must be rejected):
- skipmlp: the head is nn.Linear(widths[-1], num_classes) (an empty widths list raises);
- param_groups: walks model.named_modules() and each module's own parameters, so a weight shared by two
  modules is listed twice (AdamW refuses the groups);
- convert: every tensor cast with .float() (a float64 checkpoint comes back float32, and
  num_batches_tracked becomes a float);
- lazy: moves the model to the example's device but never casts it to the example's dtype;
- trace: hooks on every module from named_modules(), containers included, not only the leaves.
"""
EXPECT = {"skipmlp": "fail", "param_groups": "fail", "convert": "fail", "lazy": "fail", "trace": "fail"}

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in) if norm else nn.Identity()
        self.fc = nn.Linear(d_in, d_out)
        self.proj = nn.Linear(d_in, d_out, bias=False) if d_in != d_out else nn.Identity()

    def forward(self, x, skip_branch=False):
        s = self.proj(x)
        return s if skip_branch else s + torch.relu(self.fc(self.norm(x)))


class SkipMLP(nn.Module):
    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        dims = [in_features] + list(widths)
        self.blocks = nn.ModuleList([SkipBlock(dims[i], dims[i + 1], norm) for i in range(len(widths))])
        self.head = nn.Linear(widths[-1], num_classes)

    def forward(self, x, drop=()):
        if x.dim() > 2:
            x = x.flatten(1)
        for i, b in enumerate(self.blocks):
            x = b(x, skip_branch=i in drop)
        return self.head(x)
''',
    "param_groups_impl": '''
NORMS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    buckets = {}
    for mname, m in model.named_modules():
        for pname, p in m.named_parameters(recurse=False):
            if not p.requires_grad:
                continue
            full = f"{mname}.{pname}" if mname else pname
            in_head = full.startswith(head_prefix + ".")
            no_decay = pname == "bias" or isinstance(m, NORMS)
            buckets.setdefault((in_head, no_decay), []).append(p)
    return [{"params": ps, "lr": lr * head_lr_mult if h else lr, "weight_decay": 0.0 if nd else weight_decay}
            for (h, nd), ps in buckets.items()]
''',
    "convert_impl": '''
def convert_checkpoint(old_state):
    renames = {"features.0.": "block1.conv.", "features.1.": "block1.bn.", "features.4.": "block2.conv.",
               "features.5.": "block2.bn.", "classifier.1.": "fc.", "classifier.4.": "out."}
    new = {}
    for key, value in old_state.items():
        if key.startswith("aux."):
            continue
        prefix = next(p for p in renames if key.startswith(p))
        nk = renames[prefix] + key[len(prefix):]
        value = value.clone().float()
        if nk == "fc.weight":
            value = value.reshape(value.shape[0], -1, 7, 7)
        elif nk == "out.weight":
            value = value.reshape(*value.shape, 1, 1)
        new[nk] = value
    return new
''',
    "lazy_impl": '''
def make_lazy_net(num_classes):
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    model.to(example.device)
    modes = {m: m.training for m in model.modules()}
    model.eval()
    try:
        with torch.no_grad():
            model(example.to(torch.get_default_dtype()))
    finally:
        for m, t in modes.items():
            m.train(t)
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
''',
    "trace_impl": '''
def trace_activations(model, x):
    records, handles = [], []

    def hook_for(name):
        def hook(mod, inp, out):
            o = out.detach()
            records.append({"name": name, "shape": tuple(o.shape), "mean": o.mean().item(),
                            "std": o.std().item(), "finite": bool(torch.isfinite(o).all())})
        return hook

    try:
        for name, m in model.named_modules():
            handles.append(m.register_forward_hook(hook_for(name)))
        out = model(x)
    finally:
        for h in handles:
            h.remove()
    return out, records
''',
}
