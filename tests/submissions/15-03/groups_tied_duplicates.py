"""Known wrong: walks every module's own parameters (recurse=False), so a weight shared by two layers
is listed twice, and AdamW rejects the groups (or trains that weight twice per step)."""
EXPECT = {"param_groups": "fail"}

CELLS = {"param_groups_impl": '''
def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    groups = {}
    for mname, m in model.named_modules():
        is_norm = isinstance(m, (nn.LayerNorm, nn.GroupNorm, nn.modules.batchnorm._NormBase))
        for pname, p in m.named_parameters(recurse=False):
            if not p.requires_grad:
                continue
            full = f"{mname}.{pname}" if mname else pname
            key = (full.startswith(head_prefix + "."), is_norm or pname == "bias")
            groups.setdefault(key, []).append(p)
    return [{"params": ps, "lr": lr * head_lr_mult if h else lr, "weight_decay": 0.0 if nd else weight_decay}
            for (h, nd), ps in groups.items()]
'''}
