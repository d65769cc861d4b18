"""Held-out round 9, correct: one optimizer group per trainable parameter (AdamW accepts that), with the
norm parameters found by walking named_modules and the head found by its name; biases by the last name
component. Every group has params, lr and weight_decay; every trainable parameter is in exactly one."""

EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}
CELLS = {"param_groups_impl": '''
NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)


def _is_bias(name):
    last = name.split(".")[-1]
    return last == "bias" or last.startswith("bias_") or last.endswith("_bias")


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    in_norm = set()
    for _, module in model.named_modules():
        if isinstance(module, NORM_LAYERS):
            in_norm.update(id(p) for p in module.parameters(recurse=False))
    groups = []
    for name, p in model.named_parameters():
        if p.requires_grad:
            head = name[:len(head_prefix) + 1] == head_prefix + "."
            plain = not (_is_bias(name) or id(p) in in_norm)
            groups.append({"params": [p], "lr": lr * (head_lr_mult if head else 1.0),
                           "weight_decay": weight_decay if plain else 0.0})
    return groups
'''}
