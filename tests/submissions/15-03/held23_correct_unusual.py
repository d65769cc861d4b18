"""Held-out round 23 (issue 39): a correct answer to every task, written unusually. SkipMLP keeps its blocks in
an nn.ModuleDict keyed "0", "1", ..., registers the missing proj as None with register_module, and flattens with
reshape to (N, prod(rest)); param_groups collects (lr, wd) buckets through a module walk with
named_parameters(prefix=..., recurse=False) and a seen-set; convert_checkpoint rewrites keys with str.replace
over a prefix table and reshapes via torch.reshape to shapes read off the tensors; prepare_lazy uses
Module.to(example), a no_grad-decorated inner function and Module.apply to restore modes; trace_activations
uses contextlib.ExitStack with the handles as context managers."""

CELLS = {
    "skipmlp_impl": '''
import math as _math


class SkipBlock(nn.Module):
    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.register_module("norm", nn.LayerNorm(d_in) if norm else None)
        self.fc = nn.Linear(d_in, d_out)
        self.register_module("proj", nn.Linear(d_in, d_out, bias=False) if d_in != d_out else None)

    def forward(self, x, skip_branch=False):
        short = x if self.proj is None else self.proj(x)
        if skip_branch:
            return short
        branch = self.fc(x if self.norm is None else self.norm(x)).clamp_min(0)
        return short + branch


class SkipMLP(nn.Module):
    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        blocks, d = {}, in_features
        for i, w in enumerate(widths):
            blocks[str(i)] = SkipBlock(d, w, norm=norm)
            d = w
        self.blocks = nn.ModuleDict(blocks)
        self.head = nn.Linear(d, num_classes)

    def forward(self, x, drop=()):
        if x.dim() > 2:
            x = x.reshape(x.shape[0], _math.prod(x.shape[1:]))
        dropped = set(drop)
        for key, block in self.blocks.items():
            x = block(x, skip_branch=int(key) in dropped)
        return self.head(x)
''',
    "param_groups_impl": '''
NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    seen, buckets = set(), {}
    for mod_name, mod in model.named_modules():
        is_norm = isinstance(mod, NORM_LAYERS)
        for name, p in mod.named_parameters(prefix=mod_name, recurse=False):
            if id(p) in seen:
                continue
            seen.add(id(p))
            if not p.requires_grad:
                continue
            leaf = name.split(".")[-1]
            nodecay = is_norm or "bias" in leaf.split("_")
            g_lr = lr * head_lr_mult if (name + "").startswith(head_prefix + ".") else lr
            buckets.setdefault((g_lr, 0.0 if nodecay else weight_decay), []).append(p)
    return [dict(params=v, lr=k[0], weight_decay=k[1]) for k, v in buckets.items()]
''',
    "convert_impl": '''
_PREFIXES = [("features.0.", "block1.conv."), ("features.1.", "block1.bn."), ("features.4.", "block2.conv."),
             ("features.5.", "block2.bn."), ("classifier.1.", "fc."), ("classifier.4.", "out.")]


def convert_checkpoint(old_state):
    c2 = old_state["features.4.weight"].shape[0]
    out = {}
    for key, value in old_state.items():
        for old, new in _PREFIXES:
            if key.startswith(old):
                nk = key.replace(old, new, 1)
                if nk == "fc.weight":
                    side = int(round((value.shape[1] // c2) ** 0.5))
                    value = torch.reshape(value, (value.shape[0], c2, side, side))
                elif nk == "out.weight":
                    value = torch.reshape(value, (*value.shape, 1, 1))
                out[nk] = value
                break
    return out
''',
    "lazy_impl": '''
def make_lazy_net(num_classes):
    net = nn.Sequential()
    for i, layer in enumerate([nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                               nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes)]):
        net.add_module(str(i), layer)
    return net


def prepare_lazy(model, example, lr):
    model.to(example)
    modes = {}
    model.apply(lambda m: modes.__setitem__(m, m.training))

    @torch.no_grad()
    def _dry():
        model.eval()
        try:
            model(example)
        finally:
            model.apply(lambda m: setattr(m, "training", modes[m]))

    _dry()
    return torch.optim.SGD(params=model.parameters(), lr=lr, momentum=0.9)
''',
    "trace_impl": '''
import contextlib as _cl


def trace_activations(model, x):
    records = []

    def logger(name):
        def hook(module, args, output):
            o = output.detach()
            records.append({"name": name, "shape": tuple(o.size()), "mean": float(o.mean()),
                            "std": float(o.std()), "finite": bool(o.isfinite().all())})
        return hook

    with _cl.ExitStack() as stack:
        for name, m in model.named_modules():
            if not list(m.children()):
                stack.enter_context(m.register_forward_hook(logger(name)))
        output = model(x)
    return output, records
''',
}
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}
