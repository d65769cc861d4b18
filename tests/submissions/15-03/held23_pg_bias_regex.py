"""Held-out round 23 (issue 39): param_groups recognises biases with an exact regex built from the names the
text lists (bias, bias_ih_l<k>, bias_hh_l<k>, in_proj_bias). A bidirectional LSTM/GRU also has
bias_ih_l0_reverse and bias_hh_l0_reverse, which this misses: they get weight decay. Contradicts: "biases
(`bias`, and also the ones recurrent and attention layers name `bias_ih_l0`, `bias_hh_l0`, `in_proj_bias`)
... get `weight_decay=0.0`"."""

CELLS = {
    "param_groups_impl": '''
import re as _re

NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)
_BIAS = _re.compile(r"bias|bias_(ih|hh)_l\\d+|in_proj_bias")


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    norm_ids = {id(p) for m in model.modules() if isinstance(m, NORM_LAYERS) for p in m.parameters(recurse=False)}
    buckets = {}
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        tail = name.rsplit(".", 1)[-1]
        nodecay = _BIAS.fullmatch(tail) is not None or id(p) in norm_ids
        is_head = name.startswith(head_prefix + ".")
        key = (lr * head_lr_mult if is_head else lr, 0.0 if nodecay else weight_decay)
        buckets.setdefault(key, []).append(p)
    return [{"params": ps, "lr": g_lr, "weight_decay": wd} for (g_lr, wd), ps in buckets.items()]
''',
}
EXPECT = {"param_groups": "fail"}
