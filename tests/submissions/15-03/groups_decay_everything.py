"""Known wrong: the head gets its own learning rate, but weight decay is applied to every parameter,
biases and normalisation scales included."""
EXPECT = {"param_groups": "fail"}

CELLS = {"param_groups_impl": '''
def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    head = [p for n, p in model.named_parameters() if p.requires_grad and n.startswith(head_prefix + ".")]
    body = [p for n, p in model.named_parameters() if p.requires_grad and not n.startswith(head_prefix + ".")]
    return [{"params": body, "lr": lr, "weight_decay": weight_decay},
            {"params": head, "lr": lr * head_lr_mult, "weight_decay": weight_decay}]
'''}
