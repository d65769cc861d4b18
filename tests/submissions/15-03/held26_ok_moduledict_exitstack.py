"""Held-out round 26 (issue 39): correct but unusual. SkipMLP keeps its blocks in an nn.ModuleDict keyed
"0", "1", ... (the text asks for "a registered container (an nn.ModuleList is simplest) ... under the
names "0", "1""), uses None (not nn.Identity) for a missing norm and for the identity shortcut (the text
allows "nn.Identity() or None" and "no parameters"), flattens with reshape(-1, in_features). prepare_lazy
casts with `model.to(example)` (Tensor overload: the example's dtype and device) and takes the parameter
list before the dry run (materialisation keeps the same Parameter objects). trace_activations registers
its hooks inside a contextlib.ExitStack of RemovableHandles (their __exit__ removes them) and takes the
statistics with torch.std_mean in float64 (allowed: "taking them in a wider dtype such as float64 is fine")."""

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in) if norm else None
        self.fc = nn.Linear(d_in, d_out)
        self.proj = nn.Linear(d_in, d_out, bias=False) if d_in != d_out else None

    def forward(self, x, skip_branch=False):
        base = x if self.proj is None else self.proj(x)
        if skip_branch:
            return base
        h = x if self.norm is None else self.norm(x)
        return base + F.relu(self.fc(h))


class SkipMLP(nn.Module):
    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        self.in_features = in_features
        dims = [in_features]
        for w in widths:
            dims.append(w)
        self.blocks = nn.ModuleDict()
        for i in range(len(dims) - 1):
            self.blocks[str(i)] = SkipBlock(dims[i], dims[i + 1], norm)
        self.head = nn.Linear(dims[-1], num_classes)

    def forward(self, x, drop=()):
        if x.ndim > 2:
            x = x.reshape(-1, self.in_features)
        dropped = set(drop)
        for key, block in self.blocks.items():
            x = block(x, skip_branch=int(key) in dropped)
        return self.head(x)
''',
    "lazy_impl": '''
def make_lazy_net(num_classes):
    layers = [nn.LazyConv2d(16, kernel_size=3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2d(kernel_size=2),
              nn.Flatten(start_dim=1), nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes)]
    return nn.Sequential(*layers)


def prepare_lazy(model, example, lr):
    model.to(example)
    saved = [(m, m.training) for m in model.modules()]
    params = list(model.parameters())
    for m, _ in saved:
        m.training = False
    try:
        with torch.no_grad():
            model(example)
    finally:
        for m, mode in saved:
            m.training = mode
    return torch.optim.SGD(params, lr=lr, momentum=0.9)
''',
    "trace_impl": '''
import contextlib


def trace_activations(model, x):
    found = []
    leaves = [(n, m) for n, m in model.named_modules() if not list(m.children())]
    with contextlib.ExitStack() as stack:
        for name, module in leaves:
            def hook(mod, args, out, name=name):
                t = out.detach()
                std, mean = torch.std_mean(t.to(torch.float64))
                found.append(dict(name=name, shape=tuple(t.shape), mean=float(mean), std=float(std),
                                  finite=bool(t.isfinite().all())))
            stack.enter_context(module.register_forward_hook(hook))
        result = model(x)
    return result, found
''',
}
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}
