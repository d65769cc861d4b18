"""Held-out round 23 (issue 39): param_groups decides "head" by the first component of the qualified name
(name.split(".")[0] == head_prefix). Right for head_prefix="head", wrong for a dotted prefix such as
"encoder.head" or "model.classifier": those parameters get lr instead of lr * head_lr_mult. Contradicts:
"a parameter whose qualified name starts with `head_prefix + "."` gets `lr * head_lr_mult`"."""

CELLS = {
    "param_groups_impl": '''
NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    norm_ids = {id(p) for m in model.modules() if isinstance(m, NORM_LAYERS) for p in m.parameters(recurse=False)}
    buckets = {}
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        tail = name.rsplit(".", 1)[-1]
        nodecay = tail == "bias" or tail.startswith("bias_") or tail.endswith("_bias") or id(p) in norm_ids
        is_head = name.split(".")[0] == head_prefix
        key = (lr * head_lr_mult if is_head else lr, 0.0 if nodecay else weight_decay)
        buckets.setdefault(key, []).append(p)
    return [{"params": ps, "lr": g_lr, "weight_decay": wd} for (g_lr, wd), ps in buckets.items()]
''',
}
EXPECT = {"param_groups": "fail"}
