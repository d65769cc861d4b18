"""Held-out round 15: a correct answer written unusually. SkipMLP keeps its blocks in an nn.ModuleDict keyed "0",
"1", ... and an absent norm/projection as None; param_groups walks named_modules with recurse=False and a set of
ids; convert_checkpoint renames with one regular expression and reshapes with view/unsqueeze; prepare_lazy moves the
model with model.to(example) and records the modes with apply; trace_activations computes std and mean with
torch.std_mean and registers kwargs-style hooks."""

EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in) if norm else None
        self.fc = nn.Linear(d_in, d_out)
        self.proj = nn.Linear(d_in, d_out, bias=False) if d_in != d_out else None

    def forward(self, x, skip_branch=False):
        out = x if self.proj is None else self.proj(x)
        if not skip_branch:
            h = x if self.norm is None else self.norm(x)
            out = out + F.relu(self.fc(h))
        return out


class SkipMLP(nn.Module):
    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        dims = [in_features, *widths]
        self.blocks = nn.ModuleDict({str(i): SkipBlock(a, b, norm) for i, (a, b) in enumerate(zip(dims, dims[1:]))})
        self.head = nn.Linear(dims[-1], num_classes)

    def forward(self, x, drop=()):
        h = torch.flatten(x, start_dim=1) if x.ndim > 2 else x
        for key, block in self.blocks.items():
            h = block(h, skip_branch=any(int(key) == d for d in drop))
        return self.head(h)
''',
    "param_groups_impl": '''
def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    norm_types = (nn.modules.batchnorm._BatchNorm, nn.modules.instancenorm._InstanceNorm, nn.LayerNorm, nn.GroupNorm)
    seen, groups = set(), {}
    for mod_name, mod in model.named_modules():
        for p_name, p in mod.named_parameters(recurse=False):
            if id(p) in seen:
                continue
            seen.add(id(p))
            if not p.requires_grad:
                continue
            full = f"{mod_name}.{p_name}" if mod_name else p_name
            head = full.startswith(f"{head_prefix}.")
            quiet = isinstance(mod, norm_types) or p_name == "bias" or p_name.startswith("bias_") or p_name.endswith("_bias")
            key = (head, quiet)
            if key not in groups:
                groups[key] = {"params": [], "lr": lr * head_lr_mult if head else lr,
                               "weight_decay": 0.0 if quiet else weight_decay}
            groups[key]["params"].append(p)
    return list(groups.values())
''',
    "convert_impl": '''
import re

_MAP = {"features.0": "block1.conv", "features.1": "block1.bn", "features.4": "block2.conv",
        "features.5": "block2.bn", "classifier.1": "fc", "classifier.4": "out"}


def convert_checkpoint(old_state):
    out = {}
    for key in old_state:
        m = re.fullmatch(r"(features\\.\\d+|classifier\\.\\d+|aux)\\.(.+)", key)
        if m.group(1) == "aux":
            continue
        new_key = _MAP[m.group(1)] + "." + m.group(2)
        t = old_state[key]
        if new_key == "fc.weight":
            t = t.view(t.shape[0], t.shape[1] // 49, 7, 7)
        elif new_key == "out.weight":
            t = t.unsqueeze(-1).unsqueeze(-1)
        out[new_key] = t
    return out
''',
    "lazy_impl": '''
def make_lazy_net(num_classes):
    layers = [nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
              nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes)]
    net = nn.Sequential()
    for i, layer in enumerate(layers):
        net.add_module(str(i), layer)
    return net


def prepare_lazy(model, example, lr):
    model.to(example)
    saved = []
    model.apply(lambda m: saved.append((m, m.training)))
    model.train(False)
    prev = torch.is_grad_enabled()
    torch.set_grad_enabled(False)
    try:
        model(example)
    finally:
        torch.set_grad_enabled(prev)
        for m, t in saved:
            m.train(t) if not list(m.children()) else setattr(m, "training", t)
    return torch.optim.SGD(params=list(model.parameters()), lr=lr, momentum=0.9)
''',
    "trace_impl": '''
def trace_activations(model, x):
    records = []
    leaves = [(n, m) for n, m in model.named_modules() if len(m._modules) == 0 or not any(True for _ in m.children())]

    def hook_for(name):
        def hook(module, args, kwargs, output):
            with torch.no_grad():
                std, mean = torch.std_mean(output)
                records.append(dict(name=name, shape=tuple(output.shape), mean=float(mean), std=float(std),
                                    finite=torch.isfinite(output).all().item()))
        return hook

    handles = []
    try:
        for name, mod in leaves:
            handles.append(mod.register_forward_hook(hook_for(name), with_kwargs=True))
        result = model(x)
    finally:
        while handles:
            handles.pop().remove()
    return result, records
''',
}
