"""Held-out round 2 (15-03): correct for every task, written unlike the reference:

- skipmlp: norm and proj stored as None when absent, drop kept as a frozenset, torch.flatten only for
  ndim > 2 (so unbatched (F,) samples and empty batches work), the head's width read from the last block.
- param_groups: a walk over named_modules with named_parameters(recurse=False), de-duplicated by id;
  a bias is a parameter named "bias", "bias_*" or "*_bias" (LSTM, MultiheadAttention); groups keyed by
  (lr, weight_decay).
- convert: str.replace renames; the classifier weights via unflatten and [..., None, None] (views).
- lazy: model.to(example) (Module.to with a tensor), grad mode off with torch.set_grad_enabled(False),
  modes saved as a list zipped back onto model.modules().
- trace: hooks registered with with_kwargs=True inside a contextlib.ExitStack; torch.std_mean.
"""
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    """One residual block: shortcut(x) + relu(fc(norm(x)))."""

    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in) if norm else None
        self.fc = nn.Linear(d_in, d_out)
        self.proj = None if d_in == d_out else nn.Linear(d_in, d_out, bias=False)
        self.d_out = d_out

    def forward(self, x, skip_branch=False):
        short = x if self.proj is None else self.proj(x)
        if skip_branch:
            return short
        h = x if self.norm is None else self.norm(x)
        return F.relu(self.fc(h)).add(short)


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
        x = torch.flatten(x, start_dim=1) if x.ndim > 2 else x
        dropped = frozenset(drop)
        for i in range(len(self.blocks)):
            x = self.blocks[i](x, skip_branch=(i in dropped))
        return self.head(x)
''',
    "param_groups_impl": '''
NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)


def _is_bias(local_name):
    return local_name == "bias" or local_name.startswith("bias_") or local_name.endswith("_bias")


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    """Parameter groups: head vs body learning rate, no weight decay on biases and norm parameters."""
    seen, buckets = set(), {}
    for mod_name, module in model.named_modules():
        for local, p in module.named_parameters(recurse=False):
            if id(p) in seen:
                continue
            seen.add(id(p))
            if not p.requires_grad:
                continue
            full = f"{mod_name}.{local}" if mod_name else local
            group_lr = lr * head_lr_mult if full.startswith(f"{head_prefix}.") else lr
            decay = 0.0 if (isinstance(module, NORM_LAYERS) or _is_bias(local)) else weight_decay
            buckets.setdefault((group_lr, decay), []).append(p)
    return [dict(params=ps, lr=k[0], weight_decay=k[1]) for k, ps in buckets.items()]
''',
    "convert_impl": '''
def convert_checkpoint(old_state):
    """OldNet state_dict -> NewNet state_dict (renamed, aux head dropped, classifier reshaped to convs)."""
    renames = [("features.0.", "block1.conv."), ("features.1.", "block1.bn."), ("features.4.", "block2.conv."),
               ("features.5.", "block2.bn."), ("classifier.1.", "fc."), ("classifier.4.", "out.")]
    c2 = old_state["features.4.weight"].shape[0]
    result = {}
    for key in old_state:
        if key.startswith("aux"):
            continue
        new_key = key
        for a, b in renames:
            if key.startswith(a):
                new_key = key.replace(a, b, 1)
                break
        t = old_state[key]
        if new_key == "fc.weight":
            t = t.unflatten(1, (c2, 7, 7))
        elif new_key == "out.weight":
            t = t[..., None, None]
        result[new_key] = t
    return result
''',
    "lazy_impl": '''
def make_lazy_net(num_classes):
    """A small CNN made of lazy layers: works for any input channel count and image size."""
    layers = [nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
              nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes)]
    return nn.Sequential(*layers)


def prepare_lazy(model, example, lr):
    """Cast/move, dry-run without side effects, then build the optimizer."""
    model.to(example)
    modes = [m.training for m in model.modules()]
    model.train(False)
    try:
        with torch.set_grad_enabled(False):
            model(example)
    finally:
        for m, mode in zip(model.modules(), modes):
            m.training = mode
    return torch.optim.SGD(params=model.parameters(), lr=lr, momentum=0.9)
''',
    "trace_impl": '''
import contextlib


def trace_activations(model, x):
    """Run model(x) once, recording per-leaf-module output statistics with temporary forward hooks."""
    log = []

    def recorder(name):
        def hook(module, args, kwargs, output):
            y = output.detach()
            std, mean = torch.std_mean(y)
            log.append(dict(name=name, shape=tuple(y.size()), mean=float(mean), std=float(std),
                            finite=bool(y.isfinite().all())))
        return hook

    with contextlib.ExitStack() as stack:
        for name, module in model.named_modules():
            if not any(True for _ in module.children()):
                stack.callback(module.register_forward_hook(recorder(name), with_kwargs=True).remove)
        out = model(x)
    return out, log
''',
}
