"""Known-wrong implementations the suite must reject, one per task (the tasks differ, so they share a file).

- skipmlp (skipmlp_plain_list): Known wrong: blocks kept in a plain Python list, so Module.__setattr__ never registers them.
  
  The forward pass works and has the right shapes, but the blocks' parameters are missing from
  parameters() and state_dict(): an optimizer would never train them and a checkpoint would not save them.
- param_groups (groups_decay_everything): Known wrong: the head gets its own learning rate, but weight decay is applied to every parameter,
  biases and normalisation scales included.
- convert (convert_forgets_buffers): Known wrong: renames and reshapes correctly but iterates over parameter-like keys only, dropping the
  BatchNorm running statistics; and, to make loading "work", it would need strict=False.
- lazy (lazy_train_mode_dry_run): Known wrong: the dry run runs in whatever mode the model is in (usually train), with autograd on:
  LazyBatchNorm updates its running statistics from the dry-run batch (and num_batches_tracked becomes 1).
- trace (trace_hooks_not_removed): Known wrong: registers the hooks and never removes them: every later forward pass keeps logging
  (into a list nobody reads) and the next trace stacks a second set of hooks.
"""
EXPECT = {'skipmlp': 'fail', 'param_groups': 'fail', 'convert': 'fail', 'lazy': 'fail', 'trace': 'fail'}

CELLS = {
    'skipmlp_impl': '''
class SkipBlock(nn.Module):
    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in) if norm else nn.Identity()
        self.fc = nn.Linear(d_in, d_out)
        self.proj = nn.Linear(d_in, d_out, bias=False) if d_in != d_out else nn.Identity()

    def forward(self, x, skip_branch=False):
        shortcut = self.proj(x)
        return shortcut if skip_branch else shortcut + torch.relu(self.fc(self.norm(x)))


class SkipMLP(nn.Module):
    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        self.blocks = []
        d = in_features
        for w in widths:
            self.blocks.append(SkipBlock(d, w, norm))
            d = w
        self.head = nn.Linear(d, num_classes)

    def forward(self, x, drop=()):
        x = x.flatten(1)
        for i, b in enumerate(self.blocks):
            x = b(x, i in drop)
        return self.head(x)
''',
    'param_groups_impl': '''
def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    head = [p for n, p in model.named_parameters() if p.requires_grad and n.startswith(head_prefix + ".")]
    body = [p for n, p in model.named_parameters() if p.requires_grad and not n.startswith(head_prefix + ".")]
    return [{"params": body, "lr": lr, "weight_decay": weight_decay},
            {"params": head, "lr": lr * head_lr_mult, "weight_decay": weight_decay}]
''',
    'convert_impl': '''
def convert_checkpoint(old_state):
    renames = {"features.0.": "block1.conv.", "features.1.": "block1.bn.", "features.4.": "block2.conv.",
               "features.5.": "block2.bn.", "classifier.1.": "fc.", "classifier.4.": "out."}
    new = {}
    for key, value in old_state.items():
        if key.startswith("aux.") or "running_" in key or "num_batches" in key:
            continue
        prefix = next(p for p in renames if key.startswith(p))
        nk = renames[prefix] + key[len(prefix):]
        if nk == "fc.weight":
            value = value.reshape(value.shape[0], -1, 7, 7)
        if nk == "out.weight":
            value = value.reshape(*value.shape, 1, 1)
        new[nk] = value
    return new
''',
    'lazy_impl': '''
def make_lazy_net(num_classes):
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    model.to(example.device, example.dtype)
    model(example)
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
''',
    'trace_impl': '''
def trace_activations(model, x):
    records = []
    for name, m in model.named_modules():
        if len(list(m.children())) == 0:
            m.register_forward_hook(lambda mod, inp, out, name=name: records.append(
                {"name": name, "shape": tuple(out.shape), "mean": out.mean().item(), "std": out.std().item(),
                 "finite": bool(out.isfinite().all())}))
    return model(x), records
''',
}
