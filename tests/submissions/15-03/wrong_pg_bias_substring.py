"""Breaks Exercise 2 'biases ... get weight_decay=0.0; all other parameters get weight_decay': biases are found with '"bias" in name', so any weight inside a module whose name contains 'bias' (e.g. 'bias_proj.weight') loses its weight decay."""
EXPECT = {'skipmlp': 'pass', 'param_groups': 'fail', 'convert': 'pass', 'lazy': 'pass', 'trace': 'pass'}
BASE = "reference"
CELLS = {
    'param_groups_impl': '''NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    """Parameter groups: head vs body learning rate, no weight decay on biases and norm parameters."""
    exempt = set()
    for mod in model.modules():
        if isinstance(mod, NORM_LAYERS):
            exempt.update(id(p) for p in mod.parameters(recurse=False))
    buckets = {}
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        is_head = name.startswith(head_prefix + ".")
        no_wd = id(p) in exempt or "bias" in name
        buckets.setdefault((is_head, no_wd), []).append(p)
    return [{"params": ps, "lr": lr * head_lr_mult if h else lr, "weight_decay": 0.0 if nd else weight_decay}
            for (h, nd), ps in buckets.items()]
''',
}
