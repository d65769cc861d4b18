"""Correct for every task, written from the task texts alone in ways of its own (held-out round 4):

- skipmlp: blocks appended to an nn.ModuleList one by one, norm and proj registered as None when absent,
  forward written with torch.addmm / F.layer_norm and torch.flatten, drop turned into a frozenset.
- param_groups: each parameter's owner found through named_modules(), groups collected in a dict keyed by
  (head?, decayed?), biases recognised by their last name component.
- convert: one pass with regular expressions, the classifier weights reshaped with unflatten / indexing.
- lazy: an nn.Sequential built from an OrderedDict with its own names; prepare_lazy casts with
  model.to(example) and restores every module's flag from a list.
- trace: a single hook function shared by every leaf, names looked up by id, statistics from torch.std_mean.
"""
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    """One residual block: shortcut(x) + relu(fc(norm(x)))."""

    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.register_module("norm", nn.LayerNorm(d_in) if norm else None)
        self.register_module("fc", nn.Linear(d_in, d_out))
        self.register_module("proj", None if d_in == d_out else nn.Linear(d_in, d_out, bias=False))

    def forward(self, x, skip_branch=False):
        base = x if self.proj is None else x @ self.proj.weight.t()
        if skip_branch:
            return base
        z = x
        if self.norm is not None:
            z = F.layer_norm(z, self.norm.normalized_shape, self.norm.weight, self.norm.bias, self.norm.eps)
        return base + torch.clamp_min(torch.addmm(self.fc.bias, z, self.fc.weight.t()), 0)


class SkipMLP(nn.Module):
    """Residual MLP with optional LayerNorm, projection shortcuts where widths change, and droppable blocks."""

    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        self.blocks = nn.ModuleList()
        width = in_features
        for w in widths:
            self.blocks.append(SkipBlock(width, w, norm=norm))
            width = w
        self.head = nn.Linear(width, num_classes)

    def forward(self, x, drop=()):
        skipped = frozenset(drop)
        h = torch.flatten(x, 1) if x.ndim > 2 else x
        for index, block in enumerate(self.blocks):
            h = block(h, skip_branch=index in skipped)
        return self.head(h)
''',
    "param_groups_impl": '''
NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    """Parameter groups: head vs body learning rate, no weight decay on biases and norm parameters."""
    in_norm = set()
    for _, module in model.named_modules():
        if isinstance(module, NORM_LAYERS):
            in_norm.update(id(p) for p in module.parameters(recurse=False))
    buckets = {}
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        last = name.rsplit(".", 1)[-1]
        is_bias = last == "bias" or last.startswith("bias_") or last.endswith("_bias")
        decayed = not (is_bias or id(p) in in_norm)
        is_head = name.startswith(head_prefix + ".")
        buckets.setdefault((is_head, decayed), []).append(p)
    return [{"params": ps, "lr": lr * head_lr_mult if is_head else lr,
             "weight_decay": weight_decay if decayed else 0.0}
            for (is_head, decayed), ps in buckets.items()]
''',
    "convert_impl": '''
import re

_RULES = [(re.compile(r"^features\\.0\\."), "block1.conv."), (re.compile(r"^features\\.1\\."), "block1.bn."),
          (re.compile(r"^features\\.4\\."), "block2.conv."), (re.compile(r"^features\\.5\\."), "block2.bn."),
          (re.compile(r"^classifier\\.1\\."), "fc."), (re.compile(r"^classifier\\.4\\."), "out.")]


def convert_checkpoint(old_state):
    """OldNet state_dict -> NewNet state_dict (renamed, aux head dropped, classifier reshaped to convs)."""
    out = {}
    for key in old_state:
        if key.startswith("aux."):
            continue
        tensor = old_state[key]
        for pattern, repl in _RULES:
            if pattern.match(key):
                new_key = pattern.sub(repl, key)
                break
        else:
            raise KeyError(key)
        if new_key == "fc.weight":
            side = 7
            tensor = tensor.unflatten(1, (tensor.shape[1] // (side * side), side, side))
        elif new_key == "out.weight":
            tensor = tensor[:, :, None, None]
        out[new_key] = tensor.clone()
    return out
''',
    "lazy_impl": '''
from collections import OrderedDict


def make_lazy_net(num_classes):
    """A small CNN made of lazy layers: works for any input channel count and image size."""
    return nn.Sequential(OrderedDict([
        ("conv", nn.LazyConv2d(16, kernel_size=3, padding=1)), ("act1", nn.ReLU()),
        ("pool", nn.MaxPool2d(kernel_size=2)), ("flat", nn.Flatten()),
        ("hidden", nn.LazyLinear(64)), ("act2", nn.ReLU()), ("logits", nn.LazyLinear(num_classes))]))


def prepare_lazy(model, example, lr):
    """Cast/move, dry-run without side effects, then build the optimizer."""
    model.to(example)
    modules = list(model.modules())
    flags = [m.training for m in modules]
    for m in modules:
        m.training = False
    try:
        with torch.no_grad():
            model(example)
    finally:
        for m, flag in zip(modules, flags):
            m.training = flag
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
''',
    "trace_impl": '''
def trace_activations(model, x):
    """Run model(x) once, recording per-leaf-module output statistics with temporary forward hooks."""
    names = {id(m): n for n, m in model.named_modules() if next(m.children(), None) is None}
    log = []

    def observe(module, args, result):
        std, mean = torch.std_mean(result.detach())
        log.append({"name": names[id(module)], "shape": tuple(int(s) for s in result.shape),
                    "mean": float(mean), "std": float(std), "finite": bool(result.isfinite().all())})

    handles = []
    try:
        for _, m in model.named_modules():
            if id(m) in names:
                handles.append(m.register_forward_hook(observe))
        result = model(x)
    finally:
        while handles:
            handles.pop().remove()
    return result, log
''',
}
