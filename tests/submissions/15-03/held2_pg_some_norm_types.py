"""Held-out round 2 (15-03 param_groups): norm layers recognised as BatchNorm1d/2d and LayerNorm only.

Biases are found by name; GroupNorm, InstanceNorm* (affine) and BatchNorm3d weights, which the text lists
among the normalisation layers, still get weight decay.
"""
EXPECT = {'param_groups': 'fail'}

CELLS = {
    'param_groups_impl': '''
NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    """Parameter groups: head vs body learning rate, no weight decay on biases and norm parameters."""
    in_norm = set()
    for m in model.modules():
        if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d, nn.LayerNorm)):
            in_norm |= {id(p) for p in m.parameters(recurse=False)}
    groups = {}
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        head = name.startswith(head_prefix + ".")
        no_decay = id(p) in in_norm or name.rsplit('.', 1)[-1] == 'bias'
        key = (lr * head_lr_mult if head else lr, 0.0 if no_decay else weight_decay)
        groups.setdefault(key, []).append(p)
    return [{"params": ps, "lr": a, "weight_decay": b} for (a, b), ps in groups.items()]
''',
}
