"""Correct for every task, written quite differently from the reference:

- skipmlp: blocks in an nn.ModuleDict keyed "0", "1", ... (same state_dict keys), norm/proj stored as
  None, forward written with torch.nn.functional, drop given as any iterable.
- param_groups: one group per parameter, decided by p.ndim (the 1-D rule: a 0-dim parameter is no bias) and a regex.
- convert: regex renames and a target-shape table taken from a NewNet built with the checkpoint's sizes.
- lazy: a custom nn.Module with lazy layers; prepare_lazy toggles modes by hand and uses set_grad_enabled.
- trace: one *global* forward hook (register_module_forward_hook), filtered to the model's leaves,
  removed in a finally block; statistics computed in float64 with torch.var_mean.
"""
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in) if norm else None
        self.fc = nn.Linear(d_in, d_out)
        self.proj = None if d_in == d_out else nn.Linear(d_in, d_out, bias=False)

    def forward(self, x, skip_branch=False):
        base = x if self.proj is None else F.linear(x, self.proj.weight)
        if skip_branch:
            return base
        z = x if self.norm is None else F.layer_norm(x, (x.shape[-1],), self.norm.weight, self.norm.bias,
                                                       self.norm.eps)
        return F.relu(F.linear(z, self.fc.weight, self.fc.bias)).add(base)


class SkipMLP(nn.Module):
    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        dims = [in_features, *widths]
        self.blocks = nn.ModuleDict({str(i): SkipBlock(dims[i], dims[i + 1], norm) for i in range(len(widths))})
        self.head = nn.Linear(dims[-1], num_classes)

    def forward(self, x, drop=()):
        skipped = frozenset(int(i) for i in drop)
        h = x.reshape(x.shape[0], x.shape[1:].numel())  # not -1: an empty batch has no size to infer
        for key, block in self.blocks.items():
            h = block(h, skip_branch=int(key) in skipped)
        return self.head(h)
''',
    "param_groups_impl": '''
import re

def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    head = re.compile("^" + re.escape(head_prefix) + r"\\.")
    out = []
    for name, p in model.named_parameters():
        if p.requires_grad:
            out.append({"params": [p],
                        "lr": lr * head_lr_mult if head.match(name) else lr,
                        "weight_decay": 0.0 if p.ndim == 1 else weight_decay})
    return out
''',
    "convert_impl": '''
import re
from collections import OrderedDict

_RULES = [(r"^features\\.0\\.", "block1.conv."), (r"^features\\.1\\.", "block1.bn."),
          (r"^features\\.4\\.", "block2.conv."), (r"^features\\.5\\.", "block2.bn."),
          (r"^classifier\\.1\\.", "fc."), (r"^classifier\\.4\\.", "out.")]

def convert_checkpoint(old_state):
    c1 = old_state["features.0.weight"].shape[0]
    c2 = old_state["features.4.weight"].shape[0]
    hidden, nc = old_state["classifier.4.weight"].shape[1], old_state["classifier.4.weight"].shape[0]
    target = {k: v.shape for k, v in NewNet(c1, c2, hidden, nc).state_dict().items()}
    result = OrderedDict()
    for key, value in old_state.items():
        for pattern, repl in _RULES:
            new_key, n = re.subn(pattern, repl, key)
            if n:
                result[new_key] = value.clone().view(target[new_key])
                break
    return result
''',
    "lazy_impl": '''
class _LazyCNN(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.conv = nn.LazyConv2d(16, kernel_size=3, padding=1)
        self.fc1 = nn.LazyLinear(64)
        self.fc2 = nn.LazyLinear(k)

    def forward(self, x):
        h = F.max_pool2d(F.relu(self.conv(x)), 2)
        return self.fc2(F.relu(self.fc1(torch.flatten(h, 1))))


def make_lazy_net(num_classes):
    return _LazyCNN(num_classes)


def prepare_lazy(model, example, lr):
    model = model.to(example)  # Module.to(tensor) takes device and dtype from the tensor
    saved = [(m, m.training) for m in model.modules()]
    for m, _ in saved:
        m.training = False
    prev = torch.is_grad_enabled()
    torch.set_grad_enabled(False)
    try:
        model(example)
    finally:
        torch.set_grad_enabled(prev)
        for m, flag in saved:
            m.train(flag) if False else setattr(m, "training", flag)
    params = [p for p in model.parameters()]
    return torch.optim.SGD([{"params": params}], lr=lr, momentum=0.9)
''',
    "trace_impl": '''
from torch.nn.modules.module import register_module_forward_hook

def trace_activations(model, x):
    leaves = {id(m): n for n, m in model.named_modules() if next(iter(m.children()), None) is None}
    log = []

    def spy(module, args, output):
        if id(module) in leaves:
            var, mean = torch.var_mean(output.detach().to(torch.float64))
            log.append(dict(name=leaves[id(module)], shape=tuple(output.shape), mean=float(mean),
                            std=float(var.sqrt()), finite=bool(torch.isfinite(output).all().item())))

    handle = register_module_forward_hook(spy)
    try:
        result = model(x)
    finally:
        handle.remove()
    return result, log
''',
}
