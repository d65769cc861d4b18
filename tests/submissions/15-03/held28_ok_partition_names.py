"""Held-out round 28: correct but written unusually (EXPECT all "pass").

SkipMLP: blocks built by zipping [in_features, *widths] with itself shifted; the block computes the branch only
when it is not dropped and adds with torch.add(shortcut, ...); images flattened with torch.flatten(x, 1); drop
read into a frozenset. param_groups: one pass sorting parameters into four fixed (head?, no-decay?) slots, empty
slots dropped; biases recognised by str.partition / rpartition ("bias" before the first "_" or after the last
one, the same names as the reference); norm layers by the two private base classes _BatchNorm and
_InstanceNorm plus LayerNorm/GroupNorm. convert_checkpoint: renames with one compiled regex, reshapes with
Tensor.unflatten / indexing with None. prepare_lazy: casts with keyword arguments, saves modes in a list
parallel to model.modules(), dry-runs under torch.set_grad_enabled(False), builds SGD with positional lr and
momentum. trace_activations: hooks registered with with_kwargs=True, handles kept in a dict and removed in
finally; statistics from torch.var_mean in float64 (sqrt of the unbiased variance), allowed by the text.
"""
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in) if norm else nn.Identity()
        self.fc = nn.Linear(d_in, d_out)
        self.proj = nn.Identity() if d_in == d_out else nn.Linear(d_in, d_out, bias=False)

    def forward(self, x, skip_branch=False):
        shortcut = self.proj(x)
        return shortcut if skip_branch else torch.add(shortcut, F.relu(self.fc(self.norm(x))))


class SkipMLP(nn.Module):
    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        dims = [in_features, *widths]
        self.blocks = nn.ModuleList([SkipBlock(a, b, norm=norm) for a, b in zip(dims, dims[1:])])
        self.head = nn.Linear(dims[-1], num_classes)

    def forward(self, x, drop=()):
        h = torch.flatten(x, 1) if x.ndim > 2 else x
        off = frozenset(drop)
        for i in range(len(self.blocks)):
            h = self.blocks[i](h, i in off)
        return self.head(h)
''',
    "param_groups_impl": '''
NORM_LAYERS = (nn.modules.batchnorm._BatchNorm, nn.modules.instancenorm._InstanceNorm, nn.LayerNorm, nn.GroupNorm)


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    norm_ids = set()
    for m in model.modules():
        if isinstance(m, NORM_LAYERS):
            norm_ids.update(id(p) for p in m.parameters(recurse=False))
    slots = {(h, n): [] for h in (False, True) for n in (False, True)}
    for name, p in model.named_parameters():
        if p.requires_grad:
            leaf = name.rpartition(".")[2]
            is_bias = leaf.partition("_")[0] == "bias" or leaf.rpartition("_")[2] == "bias"
            slots[(name.startswith(f"{head_prefix}."), is_bias or id(p) in norm_ids)].append(p)
    return [dict(params=ps, lr=lr * head_lr_mult if head else lr, weight_decay=0.0 if nodecay else weight_decay)
            for (head, nodecay), ps in slots.items() if ps]
''',
    "convert_impl": '''
import re

_RENAME = {"features.0": "block1.conv", "features.1": "block1.bn", "features.4": "block2.conv",
           "features.5": "block2.bn", "classifier.1": "fc", "classifier.4": "out"}
_PATTERN = re.compile(r"^(features\\.[0145]|classifier\\.[14])\\.")


def convert_checkpoint(old_state):
    out = {}
    for key, value in old_state.items():
        match = _PATTERN.match(key)
        if match is None:          # the auxiliary head
            continue
        new_key = _RENAME[match.group(1)] + key[match.end() - 1:]
        if new_key == "fc.weight":
            value = value.unflatten(1, (-1, 7, 7))
        elif new_key == "out.weight":
            value = value[:, :, None, None]
        out[new_key] = value
    return out
''',
    "lazy_impl": '''
def make_lazy_net(num_classes):
    net = nn.Sequential()
    for layer in (nn.LazyConv2d(out_channels=16, kernel_size=(3, 3), padding=(1, 1)), nn.ReLU(),
                  nn.MaxPool2d(2, 2), nn.Flatten(), nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes)):
        net.append(layer)
    return net


def prepare_lazy(model, example, lr):
    model.to(dtype=example.dtype, device=example.device)
    mods = list(model.modules())
    was = [m.training for m in mods]
    try:
        for m in mods:
            m.training = False
        with torch.set_grad_enabled(False):
            model(example)
    finally:
        for m, t in zip(mods, was):
            m.training = t
    return torch.optim.SGD(model.parameters(), lr, 0.9)
''',
    "trace_impl": '''
def trace_activations(model, x):
    log = []
    handles = {}

    def hook_for(name):
        def hook(module, args, kwargs, output):
            o = output.detach()
            var, mean = torch.var_mean(o.to(torch.float64), correction=1)
            log.append({"name": name, "shape": tuple(o.size()), "mean": mean.item(),
                        "std": var.sqrt().item(), "finite": bool(o.isfinite().all().item())})
        return hook

    try:
        for name, module in model.named_modules():
            if not any(True for _ in module.children()):
                handles[name] = module.register_forward_hook(hook_for(name), with_kwargs=True)
        result = model(x)
    finally:
        for h in handles.values():
            h.remove()
    return result, log
''',
}
