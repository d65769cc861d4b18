"""Held-out round 22 (issue 39): a correct answer to every task, written unusually. SkipMLP builds its blocks
from itertools.pairwise over the dimensions and adds the branch with torch.add(out=None) through a
functional shortcut; param_groups sorts the parameters with itertools.groupby on a (head, decay) key;
convert_checkpoint is one dict comprehension over a rename table with Tensor.unflatten / unsqueeze;
prepare_lazy uses torch.set_grad_enabled(False) and restores modes through named_modules; trace_activations
is a small context-manager class holding the handles."""

CELLS = {
    "skipmlp_impl": '''
import itertools as _it


class SkipBlock(nn.Module):
    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in) if norm else None
        self.fc = nn.Linear(d_in, d_out)
        if d_in != d_out:
            self.proj = nn.Linear(d_in, d_out, bias=False)
        else:
            self.proj = None

    def _shortcut(self, x):
        return x if self.proj is None else F.linear(x, self.proj.weight)

    def forward(self, x, skip_branch=False):
        s = self._shortcut(x)
        if skip_branch:
            return s
        h = x if self.norm is None else self.norm(x)
        return torch.add(s, F.relu(self.fc(h)))


class SkipMLP(nn.Module):
    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        dims = (in_features, *widths)
        self.blocks = nn.ModuleList([SkipBlock(a, b, norm=norm) for a, b in _it.pairwise(dims)])
        self.head = nn.Linear(dims[-1], num_classes)

    def forward(self, x, drop=()):
        h = torch.flatten(x, 1) if x.ndim > 2 else x
        skip = {int(i) for i in drop}
        for i in range(len(self.blocks)):
            h = self.blocks[i](h, skip_branch=(i in skip))
        return self.head(h)
''',
    "param_groups_impl": '''
import itertools as _it2

NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    in_norm = set()
    for m in model.modules():
        if isinstance(m, NORM_LAYERS):
            in_norm |= {id(p) for p in m.parameters(recurse=False)}

    def key(item):
        n, p = item
        tail = n.split(".")[-1]
        nodecay = tail == "bias" or tail.startswith("bias_") or tail.endswith("_bias") or id(p) in in_norm
        return (n.startswith(head_prefix + "."), nodecay)

    trainable = sorted(((n, p) for n, p in model.named_parameters() if p.requires_grad), key=key)
    return [{"params": [p for _, p in items], "lr": lr * head_lr_mult if head else lr,
             "weight_decay": 0.0 if nodecay else weight_decay}
            for (head, nodecay), items in ((k, list(g)) for k, g in _it2.groupby(trainable, key=key))]
''',
    "convert_impl": '''
_TABLE = (("features.0.", "block1.conv."), ("features.1.", "block1.bn."), ("features.4.", "block2.conv."),
          ("features.5.", "block2.bn."), ("classifier.1.", "fc."), ("classifier.4.", "out."))


def _rename(key):
    for a, b in _TABLE:
        if key.startswith(a):
            return b + key[len(a):]
    return None


def _reshape(new_key, t, c2):
    if new_key == "fc.weight":
        return t.unflatten(1, (c2, 7, 7))
    if new_key == "out.weight":
        return t.unsqueeze(-1).unsqueeze(-1)
    return t


def convert_checkpoint(old_state):
    c2 = old_state["features.5.running_mean"].numel()
    return {_rename(k): _reshape(_rename(k), v, c2) for k, v in old_state.items() if not k.startswith("aux.")}
''',
    "lazy_impl": '''
def make_lazy_net(num_classes):
    layers = [nn.LazyConv2d(out_channels=16, kernel_size=(3, 3), padding=(1, 1)), nn.ReLU(),
              nn.MaxPool2d(kernel_size=2, stride=2), nn.Flatten(start_dim=1),
              nn.LazyLinear(out_features=64), nn.ReLU(), nn.LazyLinear(out_features=num_classes)]
    return nn.Sequential(*layers)


def prepare_lazy(model, example, lr):
    model.to(example.device)
    model.to(example.dtype)
    was = {name: m.training for name, m in model.named_modules()}
    for m in model.modules():
        m.training = False
    with torch.set_grad_enabled(False):
        try:
            model(example)
        finally:
            for name, m in model.named_modules():
                m.training = was[name]
    return torch.optim.SGD(model.parameters(), lr, momentum=0.9)
''',
    "trace_impl": '''
class _Tracer:
    def __init__(self, model):
        self.model, self.records, self.handles = model, [], []

    def _hook(self, name):
        def fn(module, args, out):
            t = out.detach()
            self.records.append(dict(name=name, shape=tuple(t.shape), mean=t.mean().item(),
                                     std=t.std().item(), finite=bool(t.isfinite().all().item())))
        return fn

    def __enter__(self):
        try:
            for name, m in self.model.named_modules():
                if not any(True for _ in m.children()):
                    self.handles.append(m.register_forward_hook(self._hook(name)))
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        while self.handles:
            self.handles.pop().remove()
        return False


def trace_activations(model, x):
    with _Tracer(model) as tracer:
        output = model(x)
    return output, tracer.records
''',
}
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}
