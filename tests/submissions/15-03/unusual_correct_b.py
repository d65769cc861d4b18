"""Correct answers in yet another style (all tasks must keep full marks):
- skipmlp: blocks built with nn.Sequential-free code, norm and proj registered as None through
  register_module, forward with torch.addmm and F.layer_norm, drop given as a generator is fine;
- param_groups: one pass over named_modules with a seen-set for shared weights, exact "head." match by
  str.partition, four fixed groups (empty groups left out);
- convert: key rewriting with str.split on the first two components, reshapes with view_as on the new
  model's shapes computed from the checkpoint's sizes, tensors cloned;
- lazy: Module.to(tensor), modes saved per module in a list, grad mode off with torch.set_grad_enabled,
  the optimizer built from a list of named parameters;
- trace: leaves found by a module count, records built from torch.std_mean, handles kept in a
  contextlib.ExitStack.
"""
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.register_module("norm", nn.LayerNorm(d_in) if norm else None)
        self.fc = nn.Linear(d_in, d_out)
        self.register_module("proj", nn.Linear(d_in, d_out, bias=False) if d_in != d_out else None)

    def forward(self, x, skip_branch=False):
        short = x if self.proj is None else x @ self.proj.weight.T
        if skip_branch:
            return short
        h = x if self.norm is None else F.layer_norm(x, self.norm.normalized_shape, self.norm.weight,
                                                       self.norm.bias, self.norm.eps)
        return short + torch.clamp(torch.addmm(self.fc.bias, h, self.fc.weight.T), min=0)


class SkipMLP(nn.Module):
    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        blocks, d = [], in_features
        for w in widths:
            blocks.append(SkipBlock(d, w, norm=norm))
            d = w
        self.blocks = nn.ModuleList(blocks)
        self.head = nn.Linear(d, num_classes)

    def forward(self, x, drop=()):
        dropped = {int(i) for i in drop}
        h = torch.flatten(x, start_dim=1) if x.ndim > 2 else x
        for i in range(len(self.blocks)):
            h = self.blocks[i](h, i in dropped)
        return self.head(h)
''',
    "param_groups_impl": '''
_NORM_TYPES = (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.SyncBatchNorm, nn.LayerNorm, nn.GroupNorm,
               nn.InstanceNorm1d, nn.InstanceNorm2d, nn.InstanceNorm3d, nn.LazyBatchNorm1d,
               nn.LazyBatchNorm2d, nn.LazyBatchNorm3d, nn.LazyInstanceNorm1d, nn.LazyInstanceNorm2d,
               nn.LazyInstanceNorm3d)


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    seen = set()
    slots = {(h, d): [] for h in (True, False) for d in (True, False)}
    for mname, module in model.named_modules(remove_duplicate=False):
        for pname, p in module.named_parameters(recurse=False):
            if id(p) in seen or not p.requires_grad:
                continue
            seen.add(id(p))
            qual = f"{mname}.{pname}" if mname else pname
            first, dot, _ = qual.partition(".")
            in_head = qual.startswith(head_prefix + ".")
            no_decay = pname == "bias" or pname.startswith("bias_") or pname.endswith("_bias") or isinstance(module, _NORM_TYPES)
            slots[(in_head, no_decay)].append(p)
    return [{"params": ps, "lr": lr * (head_lr_mult if h else 1.0), "weight_decay": 0.0 if d else weight_decay}
            for (h, d), ps in slots.items() if ps]
''',
    "convert_impl": '''
_MOVES = {("features", "0"): "block1.conv", ("features", "1"): "block1.bn",
          ("features", "4"): "block2.conv", ("features", "5"): "block2.bn",
          ("classifier", "1"): "fc", ("classifier", "4"): "out"}


def convert_checkpoint(old_state):
    c1 = old_state["features.0.weight"].shape[0]
    c2 = old_state["features.4.weight"].shape[0]
    k, hidden = old_state["classifier.4.weight"].shape
    shapes = {n: t.shape for n, t in NewNet(c1, c2, hidden, k).state_dict().items()}
    result = {}
    for key in old_state:
        parts = key.split(".")
        if parts[0] == "aux":
            continue
        new_key = _MOVES[(parts[0], parts[1])] + "." + ".".join(parts[2:])
        result[new_key] = old_state[key].clone().reshape(shapes[new_key])
    return result
''',
    "lazy_impl": '''
def make_lazy_net(num_classes):
    layers = [nn.LazyConv2d(out_channels=16, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(kernel_size=2),
              nn.Flatten(), nn.LazyLinear(out_features=64), nn.ReLU(), nn.LazyLinear(out_features=num_classes)]
    return nn.Sequential(*layers)


def prepare_lazy(model, example, lr):
    model.to(example)
    saved = [(m, m.training) for m in model.modules()]
    model.train(False)
    before = torch.is_grad_enabled()
    try:
        torch.set_grad_enabled(False)
        model(example)
    finally:
        torch.set_grad_enabled(before)
        for m, was in saved:
            m.training = was
    return torch.optim.SGD([p for _, p in model.named_parameters()], lr=lr, momentum=0.9)
''',
    "trace_impl": '''
import contextlib


def trace_activations(model, x):
    log = []

    def make(name):
        def hook(module, args, out):
            with torch.no_grad():
                std, mean = torch.std_mean(out)
                log.append({"name": name, "shape": tuple(out.shape), "mean": float(mean), "std": float(std),
                            "finite": bool(out.isfinite().all())})
        return hook

    with contextlib.ExitStack() as stack:
        for name, module in model.named_modules():
            if sum(1 for _ in module.children()) == 0:
                stack.callback(module.register_forward_hook(make(name)).remove)
        return model(x), log
''',
}
