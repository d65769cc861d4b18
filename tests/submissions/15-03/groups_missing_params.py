"""Known wrong: groups are collected from Linear/Conv layers only, so every normalisation parameter is
silently left out of all groups (it would never train); frozen parameters are handed over too."""
EXPECT = {"param_groups": "fail"}

CELLS = {"param_groups_impl": '''
def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    decay, no_decay, head_decay, head_no_decay = [], [], [], []
    for mname, m in model.named_modules():
        if not isinstance(m, (nn.Linear, nn.Conv2d)):
            continue
        in_head = mname.startswith(head_prefix)
        if m.weight is not None:
            (head_decay if in_head else decay).append(m.weight)
        if m.bias is not None:
            (head_no_decay if in_head else no_decay).append(m.bias)
    return [{"params": decay, "lr": lr, "weight_decay": weight_decay},
            {"params": no_decay, "lr": lr, "weight_decay": 0.0},
            {"params": head_decay, "lr": lr * head_lr_mult, "weight_decay": weight_decay},
            {"params": head_no_decay, "lr": lr * head_lr_mult, "weight_decay": 0.0}]
'''}
