"""More known-wrong implementations written from the notebook text (each must be rejected):
- skipmlp: images flattened with x.view(x.size(0), -1), which raises on a non-contiguous batch;
- param_groups: "in the head" decided by head_prefix in name.split("."), so a nested 'body.head.*' also gets
  the head's learning rate;
- convert: the sizes of the default OldNet hard-coded in the reshapes (64, 16, 7, 7) and (10, 64, 1, 1);
- lazy: after the dry run the model is put back with model.train() whatever mode it was in;
- trace: "mean" and "std" stored as 0-dim tensors instead of Python floats.
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
        self.blocks = nn.ModuleList([SkipBlock(a, b, norm) for a, b in zip(dims[:-1], dims[1:])])
        self.head = nn.Linear(dims[-1], num_classes)

    def forward(self, x, drop=()):
        if x.dim() > 2:
            x = x.view(x.size(0), -1)
        for i, b in enumerate(self.blocks):
            x = b(x, skip_branch=i in drop)
        return self.head(x)
''',
    "param_groups_impl": '''
NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    norm_ids = {id(p) for m in model.modules() if isinstance(m, NORM_LAYERS) for p in m.parameters(recurse=False)}
    groups = {}
    for name, p in model.named_parameters():
        if p.requires_grad:
            key = (head_prefix in name.split(".")[:-1], name.endswith("bias") or id(p) in norm_ids)
            groups.setdefault(key, []).append(p)
    return [{"params": ps, "lr": lr * head_lr_mult if h else lr, "weight_decay": 0.0 if nd else weight_decay}
            for (h, nd), ps in groups.items()]
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
        if nk == "fc.weight":
            value = value.reshape(64, 16, 7, 7)
        elif nk == "out.weight":
            value = value.reshape(10, 64, 1, 1)
        new[nk] = value
    return new
''',
    "lazy_impl": '''
def make_lazy_net(num_classes):
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    model.to(device=example.device, dtype=example.dtype)
    model.eval()
    with torch.no_grad():
        model(example)
    model.train()
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
''',
    "trace_impl": '''
def trace_activations(model, x):
    records, handles = [], []

    def hook_for(name):
        def hook(mod, inp, out):
            o = out.detach()
            records.append({"name": name, "shape": tuple(o.shape), "mean": o.mean(), "std": o.std(),
                            "finite": bool(torch.isfinite(o).all())})
        return hook

    try:
        for name, m in model.named_modules():
            if not list(m.children()):
                handles.append(m.register_forward_hook(hook_for(name)))
        out = model(x)
    finally:
        for h in handles:
            h.remove()
    return out, records
''',
}
