"""Known-wrong implementations written from the notebook text (each must be rejected):
- skipmlp: the projection shortcut keeps its bias (nn.Linear(d_in, d_out));
- param_groups: the head test is name.startswith(head_prefix), without the "." separator, so a module
  called "header" or "head2" also gets the head's learning rate;
- convert: an explicit key table for weights, biases and running statistics that forgets
  num_batches_tracked (strict=True then reports two missing keys);
- lazy: the dry run under torch.inference_mode() (the parameters become inference tensors);
- trace: "std" computed with correction 0 (unbiased=False) instead of PyTorch's default.
"""
EXPECT = {"skipmlp": "fail", "param_groups": "fail", "convert": "fail", "lazy": "fail", "trace": "fail"}

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in) if norm else nn.Identity()
        self.fc = nn.Linear(d_in, d_out)
        self.proj = nn.Linear(d_in, d_out) if d_in != d_out else nn.Identity()

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
            x = x.flatten(1)
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
        if not p.requires_grad:
            continue
        head = name.startswith(head_prefix)
        nodecay = name.endswith("bias") or id(p) in norm_ids
        groups.setdefault((head, nodecay), []).append(p)
    return [{"params": ps, "lr": lr * head_lr_mult if h else lr, "weight_decay": 0.0 if nd else weight_decay}
            for (h, nd), ps in groups.items()]
''',
    "convert_impl": '''
def convert_checkpoint(old_state):
    table = {}
    for old, new in [("features.0", "block1.conv"), ("classifier.1", "fc"), ("features.4", "block2.conv"),
                     ("classifier.4", "out")]:
        table[old + ".weight"] = new + ".weight"
        table[old + ".bias"] = new + ".bias"
    for old, new in [("features.1", "block1.bn"), ("features.5", "block2.bn")]:
        for leaf in ("weight", "bias", "running_mean", "running_var"):
            table[f"{old}.{leaf}"] = f"{new}.{leaf}"
    out = {}
    for k, new_k in table.items():
        v = old_state[k]
        if new_k == "fc.weight":
            v = v.reshape(v.shape[0], -1, 7, 7)
        elif new_k == "out.weight":
            v = v[:, :, None, None]
        out[new_k] = v
    return out
''',
    "lazy_impl": '''
def make_lazy_net(num_classes):
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    model.to(device=example.device, dtype=example.dtype)
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    with torch.inference_mode():
        model(example)
    for m, t in modes:
        m.training = t
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
''',
    "trace_impl": '''
def trace_activations(model, x):
    records, handles = [], []

    def hook_for(name):
        def hook(mod, inp, out):
            o = out.detach()
            records.append({"name": name, "shape": tuple(o.shape), "mean": o.mean().item(),
                            "std": o.std(unbiased=False).item(), "finite": bool(torch.isfinite(o).all())})
        return hook

    try:
        for name, m in model.named_modules():
            if len(list(m.children())) == 0:
                handles.append(m.register_forward_hook(hook_for(name)))
        out = model(x)
    finally:
        for h in handles:
            h.remove()
    return out, records
''',
}
