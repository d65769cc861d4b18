"""Known-wrong answers, one per task, written from the notebook text.
- count_ops: counts distinct targets per opcode, so a module called twice counts once.
- fold_conv_bn: rebuilds the conv with nn.Conv2d(...) without dtype/device: the parameters come out float32
  for a float64 conv.
- fuse_conv_bn: only looks at model.training; a BatchNorm2d left in training mode inside an eval-mode
  model is fused anyway (it folds with its own helper, so the broken fold_conv_bn above plays no part).
- insert_observers: matches the module type exactly (type(m) in op_types), so subclasses of the listed
  classes get no observer.
- swap_relu: forgets the in-place forms torch.relu_ and x.relu_() (F.relu(x, inplace=True) is caught).
- recording backend: appends gm.graph (the Graph) instead of the GraphModule gm.
"""
EXPECT = {"count_ops": "fail", "fold_conv_bn": "fail", "fuse_conv_bn": "fail", "insert_observers": "fail",
          "swap_relu": "fail", "recording_backend": "fail"}
CELLS = {
    "count_ops_impl": '''
def count_ops(model: nn.Module) -> dict:
    gm = fx.symbolic_trace(model)
    seen = {}
    for node in gm.graph.nodes:
        seen.setdefault(node.op, set()).add(node.target if isinstance(node.target, str) else id(node.target))
    return {op: len(targets) for op, targets in seen.items()}
''',
    "fold_conv_bn_impl": '''
def fold_conv_bn(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> nn.Conv2d:
    fused = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size, stride=conv.stride,
                      padding=conv.padding, dilation=conv.dilation, groups=conv.groups, bias=True,
                      padding_mode=conv.padding_mode)
    with torch.no_grad():
        std = torch.sqrt(bn.running_var + bn.eps)
        scale = bn.weight / std
        bias = conv.bias if conv.bias is not None else torch.zeros_like(bn.running_mean)
        fused.weight.copy_(conv.weight * scale[:, None, None, None])
        fused.bias.copy_((bias - bn.running_mean) * scale + bn.bias)
    return fused
''',
    "fuse_conv_bn_impl": '''
def _fold_pair(conv, bn):
    out = copy.deepcopy(conv)
    scale = (bn.weight * torch.rsqrt(bn.running_var + bn.eps)).detach()
    b = conv.bias.detach() if conv.bias is not None else torch.zeros_like(scale)
    out.weight = nn.Parameter(conv.weight.detach() * scale.reshape(-1, 1, 1, 1))
    out.bias = nn.Parameter((b - bn.running_mean) * scale + bn.bias.detach())
    return out


def fuse_conv_bn(model: nn.Module) -> fx.GraphModule:
    if model.training:
        raise RuntimeError("fuse_conv_bn needs eval mode: call model.eval()")
    gm = fx.symbolic_trace(copy.deepcopy(model))
    modules = dict(gm.named_modules())
    for node in list(gm.graph.nodes):
        if node.op != "call_module" or not isinstance(modules[node.target], nn.BatchNorm2d):
            continue
        conv_node = node.args[0]
        if not isinstance(conv_node, fx.Node) or conv_node.op != "call_module":
            continue
        if not isinstance(modules[conv_node.target], nn.Conv2d) or len(conv_node.users) > 1:
            continue
        folded = _fold_pair(modules[conv_node.target], modules[node.target])
        parent, _, name = conv_node.target.rpartition(".")
        setattr(gm.get_submodule(parent), name, folded)
        node.replace_all_uses_with(conv_node)
        gm.graph.erase_node(node)
    gm.graph.lint()
    gm.recompile()
    return gm
''',
    "insert_observers_impl": '''
def insert_observers(model: nn.Module, op_types: tuple) -> fx.GraphModule:
    gm = fx.symbolic_trace(model)
    for i, node in enumerate(list(gm.graph.nodes)):
        if node.op != "call_module" or type(gm.get_submodule(node.target)) not in op_types:
            continue
        name = f"range_obs_{i}"
        gm.add_submodule(name, RangeObserver())
        with gm.graph.inserting_after(node):
            obs = gm.graph.call_module(name, (node,))
        node.replace_all_uses_with(obs, delete_user_cb=lambda u: u is not obs)
    gm.graph.lint()
    gm.recompile()
    return gm
''',
    "swap_relu_impl": '''
def swap_relu(model: nn.Module, new_fn) -> fx.GraphModule:
    gm = fx.symbolic_trace(model)
    for node in list(gm.graph.nodes):
        hit = (node.op == "call_module" and isinstance(gm.get_submodule(node.target), nn.ReLU)) \\
            or (node.op == "call_function" and node.target in (F.relu, torch.relu)) \\
            or (node.op == "call_method" and node.target == "relu")
        if hit:
            with gm.graph.inserting_before(node):
                repl = gm.graph.call_function(new_fn, (node.args[0],))
            node.replace_all_uses_with(repl)
            gm.graph.erase_node(node)
    gm.graph.lint()
    gm.recompile()
    return gm
''',
    "recording_backend_impl": '''
def make_recording_backend():
    graphs = []

    def backend(gm, example_inputs):
        print(gm.code)
        graphs.append(gm.graph)
        return gm.forward

    return backend, graphs
''',
}
