"""Held-out round 2 (15-03 param_groups): a bias is a parameter whose own name is exactly "bias".

Right for Linear, Conv and norm layers, but the biases of nn.LSTM/GRU/RNN (bias_ih_l0, bias_hh_l0) and of
nn.MultiheadAttention (in_proj_bias) get weight decay, although the text exempts every bias.
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
        no_decay = id(p) in in_norm or name.rsplit('.', 1)[-1] == 'bias'
        key = (lr * head_lr_mult if head else lr, 0.0 if no_decay else weight_decay)
        groups.setdefault(key, []).append(p)
    return [{"params": ps, "lr": a, "weight_decay": b} for (a, b), ps in groups.items()]
''',
}
