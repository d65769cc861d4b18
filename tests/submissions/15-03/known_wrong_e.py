"""Known-wrong implementations written from the notebook text (each must be rejected):
- skipmlp: norm=False builds nn.LayerNorm(d_in, elementwise_affine=False): no normalisation parameters,
  but the branch still normalises;
- param_groups: normalisation layers recognised by a hand-written class list (BatchNorm1d/2d, LayerNorm):
  GroupNorm, InstanceNorm and BatchNorm3d weights get weight decay;
- convert: pops the auxiliary head's keys out of old_state (the caller's dict is modified);
- lazy: saves and restores only the top-level module's mode (model.train(was)), so children that were in
  a different mode come back in the top module's mode;
- trace: "finite" tested with isnan only (an inf output counts as finite).
"""
EXPECT = {"skipmlp": "fail", "param_groups": "fail", "convert": "fail", "lazy": "fail", "trace": "fail"}

CELLS = {
    "skipmlp_impl": '''
class SkipBlock(nn.Module):
    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in, elementwise_affine=norm)
        self.fc = nn.Linear(d_in, d_out)
        self.proj = nn.Linear(d_in, d_out, bias=False) if d_in != d_out else nn.Identity()

    def forward(self, x, skip_branch=False):
        s = self.proj(x)
        if skip_branch:
            return s
        return s + F.relu(self.fc(self.norm(x)))


class SkipMLP(nn.Module):
    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        self.blocks = nn.ModuleList()
        d = in_features
        for w in widths:
            self.blocks.append(SkipBlock(d, w, norm))
            d = w
        self.head = nn.Linear(d, num_classes)

    def forward(self, x, drop=()):
        if x.dim() > 2:
            x = x.flatten(1)
        for i, block in enumerate(self.blocks):
            x = block(x, skip_branch=i in set(drop))
        return self.head(x)
''',
    "param_groups_impl": '''
def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    norm_ids = set()
    for m in model.modules():
        if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d, nn.LayerNorm)):
            norm_ids.update(id(p) for p in m.parameters(recurse=False))
    out = []
    for in_head in (False, True):
        for no_decay in (False, True):
            ps = [p for n, p in model.named_parameters()
                  if p.requires_grad and n.startswith(head_prefix + ".") == in_head
                  and (n.endswith(".bias") or n == "bias" or id(p) in norm_ids) == no_decay]
            if ps:
                out.append({"params": ps, "lr": lr * head_lr_mult if in_head else lr,
                            "weight_decay": 0.0 if no_decay else weight_decay})
    return out
''',
    "convert_impl": '''
def convert_checkpoint(old_state):
    old_state.pop("aux.weight", None)
    old_state.pop("aux.bias", None)
    renames = {"features.0.": "block1.conv.", "features.1.": "block1.bn.", "features.4.": "block2.conv.",
               "features.5.": "block2.bn.", "classifier.1.": "fc.", "classifier.4.": "out."}
    new = {}
    for key, value in old_state.items():
        for old, rep in renames.items():
            if key.startswith(old):
                key = rep + key[len(old):]
                break
        if key == "fc.weight":
            value = value.reshape(value.shape[0], -1, 7, 7)
        elif key == "out.weight":
            value = value.reshape(value.shape[0], value.shape[1], 1, 1)
        new[key] = value
    return new
''',
    "lazy_impl": '''
def make_lazy_net(num_classes):
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    model.to(device=example.device, dtype=example.dtype)
    was_training = model.training
    model.eval()
    with torch.no_grad():
        model(example)
    model.train(was_training)
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
''',
    "trace_impl": '''
def trace_activations(model, x):
    records, handles = [], []

    def hook_for(name):
        def hook(mod, inp, out):
            o = out.detach()
            records.append({"name": name, "shape": tuple(o.shape), "mean": o.mean().item(),
                            "std": o.std().item(), "finite": not bool(torch.isnan(o).any())})
        return hook

    try:
        for name, m in model.named_modules():
            if not list(m.children()):
                handles.append(m.register_forward_hook(hook_for(name)))
        out = model(x)
    finally:
        for h in handles:
            h.remove()
    return out, records
''',
}
