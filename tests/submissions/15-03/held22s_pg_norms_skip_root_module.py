"""Held-out round 22, second pass (not counted): param_groups collects the normalisation layers' parameters from
named_modules() but skips the entry named "" (meant to skip "the container"), so a model that is itself a
normalisation layer has its scale decayed. Contradicts "the parameters of normalisation layers (BatchNorm*,
LayerNorm, GroupNorm, InstanceNorm*) get weight_decay=0.0"."""

CELLS = {
    "param_groups_impl": '''
NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    """Parameter groups: head vs body learning rate, no weight decay on biases and norm parameters."""
    norm_params = set()
    for mname, m in model.named_modules():
        if mname and isinstance(m, NORM_LAYERS):
            norm_params |= {id(p) for p in m.parameters(recurse=False)}
    buckets = {}
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        in_head = name.startswith(head_prefix + ".")
        leaf = name.rsplit(".", 1)[-1]
        no_decay = leaf == "bias" or leaf.startswith("bias_") or leaf.endswith("_bias") or id(p) in norm_params
        buckets.setdefault((in_head, no_decay), []).append(p)
    return [{"params": ps, "lr": lr * head_lr_mult if in_head else lr,
             "weight_decay": 0.0 if no_decay else weight_decay}
            for (in_head, no_decay), ps in buckets.items()]
''',
}
EXPECT = {"skipmlp": "pass", "param_groups": "fail", "convert": "pass", "lazy": "pass", "trace": "pass"}
