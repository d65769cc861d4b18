"""Unusual but correct (gap round): SkipBlock keeps proj and norm as None when absent; param_groups walks
named_modules() and each module's own parameters (recurse=False), skipping a tensor already seen (tied
weights), and puts every parameter in a group of its own; trace_activations registers its hooks inside
contextlib.ExitStack."""
CELLS = {
    "skipmlp_impl": '''class SkipBlock(nn.Module):
    """One residual block: shortcut(x) + relu(fc(norm(x)))."""

    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        self.norm = nn.LayerNorm(d_in) if norm else None
        self.fc = nn.Linear(d_in, d_out)
        self.proj = None if d_in == d_out else nn.Linear(d_in, d_out, bias=False)

    def forward(self, x, skip_branch=False):
        short = x if self.proj is None else self.proj(x)
        if skip_branch:
            return short
        h = x if self.norm is None else self.norm(x)
        return short + F.relu(self.fc(h))


class SkipMLP(nn.Module):
    """Residual MLP with optional LayerNorm, projection shortcuts where widths change, and droppable blocks."""

    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        dims = [in_features, *widths]
        self.blocks = nn.ModuleList(SkipBlock(a, b, norm) for a, b in zip(dims, dims[1:]))
        self.head = nn.Linear(dims[-1], num_classes)

    def forward(self, x, drop=()):
        x = torch.flatten(x, start_dim=1) if x.dim() > 2 else x
        for i in range(len(self.blocks)):
            x = self.blocks[i](x, skip_branch=(i in drop))
        return self.head(x)
''',
    "param_groups_impl": '''NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    """Parameter groups: head vs body learning rate, no weight decay on biases and norm parameters."""
    seen, groups = set(), []
    for mod_name, mod in model.named_modules():
        for p_name, p in mod.named_parameters(recurse=False):
            if id(p) in seen or not p.requires_grad:
                continue
            seen.add(id(p))
            full = f"{mod_name}.{p_name}" if mod_name else p_name
            head = full.startswith(f"{head_prefix}.")
            decay = 0.0 if (p_name.endswith("bias") or p_name.startswith("bias_") or isinstance(mod, NORM_LAYERS)) else weight_decay
            groups.append({"params": [p], "lr": lr * head_lr_mult if head else lr, "weight_decay": decay})
    return groups
''',
    "trace_impl": '''def trace_activations(model, x):
    """Run model(x) once, recording per-leaf-module output statistics with temporary forward hooks."""
    import contextlib
    records = []

    def hook_for(name):
        def hook(module, inputs, output):
            with torch.no_grad():
                records.append({"name": name, "shape": tuple(output.shape), "mean": float(output.mean()),
                                "std": float(output.std()), "finite": bool(output.isfinite().all())})
        return hook

    with contextlib.ExitStack() as stack:
        for name, module in model.named_modules():
            if not any(True for _ in module.children()):
                stack.callback(module.register_forward_hook(hook_for(name)).remove)
        out = model(x)
    return out, records
''',
}
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "trace": "pass"}
