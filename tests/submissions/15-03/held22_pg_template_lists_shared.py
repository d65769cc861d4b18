"""Held-out round 22 (issue 39): param_groups starts from a module-level template of four groups copied with
list(...) (a shallow copy), so the group dicts and their "params" lists are the template's own and every
call appends to the same lists: a second call (another model, or the same one again) returns groups that
still hold the first call's parameters, and the first call's groups grow. Contradicts "every parameter with
requires_grad=True is in exactly one group" (of the model given) and, with AdamW, a parameter of another
model in the groups."""

CELLS = {
    "param_groups_impl": '''
NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)

_TEMPLATE = [{"params": [], "head": False, "decay": True}, {"params": [], "head": False, "decay": False},
             {"params": [], "head": True, "decay": True}, {"params": [], "head": True, "decay": False}]


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    """Parameter groups: head vs body learning rate, no weight decay on biases and norm parameters."""
    norm_params = {id(p) for m in model.modules() if isinstance(m, NORM_LAYERS) for p in m.parameters(recurse=False)}
    groups = list(_TEMPLATE)
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        in_head = name.startswith(head_prefix + ".")
        leaf = name.rsplit(".", 1)[-1]
        no_decay = leaf == "bias" or leaf.startswith("bias_") or leaf.endswith("_bias") or id(p) in norm_params
        for g in groups:
            if g["head"] == in_head and g["decay"] == (not no_decay):
                g["params"].append(p)
    out = []
    for g in groups:
        if g["params"]:
            out.append({"params": g["params"], "lr": lr * head_lr_mult if g["head"] else lr,
                        "weight_decay": weight_decay if g["decay"] else 0.0})
    return out
''',
}
EXPECT = {"skipmlp": "pass", "param_groups": "fail", "convert": "pass", "lazy": "pass", "trace": "pass"}
