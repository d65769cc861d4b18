"""Held-out round 2 (15-03 param_groups): "no decay" decided by p.dim() < 2 (the nanoGPT rule).

The same as the 1-D rule for biases and norm scales, but a 0-dim parameter (a learned scalar temperature
or gate, neither a bias nor a norm parameter) also gets weight_decay 0, where the text gives it weight_decay.
"""
EXPECT = {'param_groups': 'fail'}

CELLS = {
    'param_groups_impl': '''
NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    """Parameter groups: head vs body learning rate, no weight decay on biases and norm parameters."""
    in_norm = set()
    for m in model.modules():
        if isinstance(m, NORM_LAYERS):
            in_norm |= {id(p) for p in m.parameters(recurse=False)}
    groups = {}
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        head = name.startswith(head_prefix + ".")
        no_decay = p.dim() < 2
        key = (lr * head_lr_mult if head else lr, 0.0 if no_decay else weight_decay)
        groups.setdefault(key, []).append(p)
    return [{"params": ps, "lr": a, "weight_decay": b} for (a, b), ps in groups.items()]
''',
}
