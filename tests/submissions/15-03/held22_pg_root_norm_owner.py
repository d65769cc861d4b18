"""Held-out round 22 (issue 39): param_groups finds the module that owns a parameter with
name.rsplit(".", 1)[0], which for a parameter of the root module ("weight", "bias") gives the parameter's
own name instead of "" (the root), so when the model itself is a normalisation layer (or a model with a
normalisation layer's parameters registered on the root), its scale is not recognised and gets weight decay.
Contradicts "the parameters of normalisation layers (BatchNorm*, LayerNorm, GroupNorm, InstanceNorm*) get
weight_decay=0.0"."""

CELLS = {
    "param_groups_impl": '''
NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    """Parameter groups: head vs body learning rate, no weight decay on biases and norm parameters."""
    modules = dict(model.named_modules())
    buckets = {}
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        owner = modules.get(name.rsplit(".", 1)[0])
        leaf = name.rsplit(".", 1)[-1]
        is_bias = leaf == "bias" or leaf.startswith("bias_") or leaf.endswith("_bias")
        no_decay = is_bias or isinstance(owner, NORM_LAYERS)
        in_head = name.startswith(head_prefix + ".")
        buckets.setdefault((in_head, no_decay), []).append(p)
    return [{"params": ps, "lr": lr * head_lr_mult if in_head else lr,
             "weight_decay": 0.0 if no_decay else weight_decay}
            for (in_head, no_decay), ps in buckets.items()]
''',
}
EXPECT = {"skipmlp": "pass", "param_groups": "fail", "convert": "pass", "lazy": "pass", "trace": "pass"}
