"""Known-wrong implementations the suite must reject, one per task (the tasks differ, so they share a file).

- param_groups (groups_tied_duplicates): Known wrong: walks every module's own parameters (recurse=False), so a weight shared by two layers
  is listed twice, and AdamW rejects the groups (or trains that weight twice per step).
- convert (convert_keeps_aux_mutates): Known wrong: edits the caller's dict in place (pop/insert) and forgets to drop the auxiliary head,
  so strict loading reports unexpected keys and the old checkpoint is destroyed.
- lazy (lazy_inference_mode): Known wrong: dry run under torch.inference_mode() instead of torch.no_grad(). The parameters are
  materialised as inference tensors, so the first real training step fails ("Inference tensors cannot be
  saved for backward"). make_lazy_net hard-codes the FashionMNIST input size in a plain Linear.
- trace (trace_clears_all_hooks): Known wrong: cleans up with module._forward_hooks.clear(), which also deletes hooks that other code
  registered; records are keyed by module name, so a module called twice is logged once.
"""
EXPECT = {'param_groups': 'fail', 'convert': 'zero', 'lazy': 'fail', 'trace': 'fail'}

CELLS = {
    'param_groups_impl': '''
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
''',
    'convert_impl': '''
def convert_checkpoint(old_state):
    renames = {"features.0.": "block1.conv.", "features.1.": "block1.bn.", "features.4.": "block2.conv.",
               "features.5.": "block2.bn.", "classifier.1.": "fc.", "classifier.4.": "out."}
    for key in list(old_state):
        for p, q in renames.items():
            if key.startswith(p):
                old_state[q + key[len(p):]] = old_state.pop(key)
    old_state["fc.weight"] = old_state["fc.weight"].reshape(old_state["fc.weight"].shape[0], -1, 7, 7)
    old_state["out.weight"] = old_state["out.weight"][..., None, None]
    return old_state
''',
    'lazy_impl': '''
def make_lazy_net(num_classes):
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.Linear(16 * 14 * 14, 64), nn.ReLU(), nn.Linear(64, num_classes))


def prepare_lazy(model, example, lr):
    model.to(example.device, example.dtype)
    was = model.training
    model.eval()
    with torch.inference_mode():
        model(example)
    model.train(was)
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
''',
    'trace_impl': '''
def trace_activations(model, x):
    stats = {}
    leaves = [(n, m) for n, m in model.named_modules() if not list(m.children())]
    for n, m in leaves:
        m.register_forward_hook(lambda mod, inp, out, n=n: stats.__setitem__(n, {
            "name": n, "shape": tuple(out.shape), "mean": out.mean().item(), "std": out.std().item(),
            "finite": bool(torch.isfinite(out).all())}))
    try:
        out = model(x)
    finally:
        for _, m in leaves:
            m._forward_hooks.clear()
    return out, list(stats.values())
''',
}
