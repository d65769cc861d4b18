"""Held-out round 12 (issue 39): a correct answer to every task, written unusually. SkipMLP keeps its
blocks in an nn.ModuleDict keyed "0", "1", ... and builds the shortcut with a conditional expression;
param_groups sorts parameters into a dict keyed by (lr, weight_decay) and recognises norm layers by
the classes' common bases; convert_checkpoint rewrites keys with a regular expression; prepare_lazy
casts with model.to(example) and restores modes through Module.apply; trace_activations registers
kwargs-style hooks through a contextlib.ExitStack."""

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        if norm:
            self.norm = nn.LayerNorm(d_in)
        else:
            self.norm = None
        self.fc = nn.Linear(d_in, d_out)
        self.proj = None if d_in == d_out else nn.Linear(d_in, d_out, bias=False)

    def forward(self, x, skip_branch=False):
        base = x if self.proj is None else self.proj(x)
        if skip_branch:
            return base if self.proj is not None else x.clone()
        h = x if self.norm is None else self.norm(x)
        return F.relu(self.fc(h)).add(base)


class SkipMLP(nn.Module):
    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        dims = [in_features, *widths]
        self.blocks = nn.ModuleDict({str(i): SkipBlock(a, b, norm) for i, (a, b) in enumerate(zip(dims, dims[1:]))})
        self.head = nn.Linear(dims[-1], num_classes)

    def forward(self, x, drop=()):
        if x.ndim >= 3:
            x = torch.flatten(x, start_dim=1)
        dropped = frozenset(int(i) for i in drop)
        for key, block in self.blocks.items():
            x = block(x, int(key) in dropped)
        return self.head(x)
''',
    "param_groups_impl": '''
def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    norm_ids = set()
    for m in model.modules():
        if isinstance(m, (nn.modules.batchnorm._BatchNorm, nn.modules.instancenorm._InstanceNorm, nn.LayerNorm, nn.GroupNorm)):
            norm_ids.update(id(p) for p in m.parameters(recurse=False))
    table = {}
    for qual, p in model.named_parameters():
        if not p.requires_grad:
            continue
        last = qual.split(".")[-1]
        is_bias = last == "bias" or last.startswith("bias_") or last.endswith("_bias")
        key = (lr * head_lr_mult if qual.startswith(f"{head_prefix}.") else lr,
               0.0 if (is_bias or id(p) in norm_ids) else weight_decay)
        table.setdefault(key, []).append(p)
    return [dict(params=ps, lr=k[0], weight_decay=k[1]) for k, ps in table.items()]
''',
    "convert_impl": '''
import re as _re

_RULES = [(r"^features\\.0\\.", "block1.conv."), (r"^features\\.1\\.", "block1.bn."),
          (r"^features\\.4\\.", "block2.conv."), (r"^features\\.5\\.", "block2.bn."),
          (r"^classifier\\.1\\.", "fc."), (r"^classifier\\.4\\.", "out.")]


def convert_checkpoint(old_state):
    c2 = old_state["features.4.weight"].shape[0]
    result = {}
    for k in old_state:
        if _re.match(r"^aux\\.", k):
            continue
        nk = k
        for pat, rep in _RULES:
            nk, n = _re.subn(pat, rep, nk)
            if n:
                break
        v = old_state[k]
        if nk == "fc.weight":
            v = v.unflatten(1, (c2, 7, 7))
        elif nk == "out.weight":
            v = v[:, :, None, None]
        result[nk] = v
    return result
''',
    "lazy_impl": '''
def make_lazy_net(num_classes):
    net = nn.Sequential()
    for layer in (nn.LazyConv2d(16, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(kernel_size=2),
                  nn.Flatten(), nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes)):
        net.append(layer)
    return net


def prepare_lazy(model, example, lr):
    model.to(example)
    saved = []
    model.apply(lambda m: saved.append((m, m.training)))
    model.train(False)
    with torch.no_grad():
        try:
            model(example)
        finally:
            for m, was in saved:
                m.train(was) if not list(m.children()) else setattr(m, "training", was)
    return torch.optim.SGD(params=model.parameters(), lr=lr, momentum=0.9)
''',
    "trace_impl": '''
import contextlib as _ctx


def trace_activations(model, x):
    out_records = []

    def hook_for(qualname):
        def hook(module, args, kwargs, result):
            r = result.detach()
            out_records.append(dict(name=qualname, shape=tuple(r.size()), mean=float(r.mean()),
                                    std=float(torch.std(r)), finite=bool(r.isfinite().all().item())))
        return hook

    with _ctx.ExitStack() as stack:
        for qualname, mod in model.named_modules():
            if len(list(mod.children())) == 0:
                stack.callback(mod.register_forward_hook(hook_for(qualname), with_kwargs=True).remove)
        result = model(x)
    return result, out_records
''',
}
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}
