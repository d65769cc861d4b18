"""Held-out round 15, correct written unusually: swap_relu turns each ReLU node into the new call in place (op,
target, args and kwargs reassigned, no node inserted or erased), and fuse_conv_bn installs the folded conv with
GraphModule.add_submodule (which walks a dotted name and overwrites the leaf) after recording the pairs in a first
pass."""
EXPECT = {"swap_relu": "pass", "fuse_conv_bn": "pass"}
CELLS = {
    "swap_relu_impl": '''
def swap_relu(model: nn.Module, new_fn) -> fx.GraphModule:
    """Trace ``model`` and replace every ReLU (module, function or method form) by a call of ``new_fn``."""
    gm = fx.symbolic_trace(model)
    modules = dict(gm.named_modules())
    for node in gm.graph.nodes:
        if node.op == "call_module":
            hit = isinstance(modules[node.target], nn.ReLU)
        elif node.op == "call_function":
            hit = node.target in (F.relu, torch.relu, torch.relu_)
        elif node.op == "call_method":
            hit = node.target in ("relu", "relu_")
        else:
            hit = False
        if hit:
            x = node.args[0] if node.args else node.kwargs.get("input", next(iter(node.kwargs.values()), None))
            node.op, node.target = "call_function", new_fn
            node.args, node.kwargs = (x,), {}
    gm.graph.lint()
    gm.recompile()
    return gm
''',
    "fuse_conv_bn_impl": '''
def fuse_conv_bn(model: nn.Module) -> fx.GraphModule:
    """Fold every valid Conv2d -> BatchNorm2d pair of an eval-mode ``model``; returns a new GraphModule."""
    bns = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
    if model.training or any(m.training for m in bns):
        raise RuntimeError("Conv/BatchNorm fusion needs eval mode (model.eval()); a module is in training mode")
    gm = fx.symbolic_trace(copy.deepcopy(model))
    mods = dict(gm.named_modules())
    calls = Counter(n.target for n in gm.graph.nodes if n.op == "call_module")
    pairs = []
    for bn_node in gm.graph.nodes:
        if bn_node.op != "call_module" or not isinstance(mods[bn_node.target], nn.BatchNorm2d):
            continue
        if len(bn_node.args) != 1 or not isinstance(bn_node.args[0], fx.Node):
            continue
        conv_node = bn_node.args[0]
        if conv_node.op == "call_module" and isinstance(mods[conv_node.target], nn.Conv2d) \\
                and len(conv_node.users) == 1 and calls[conv_node.target] == 1:
            pairs.append((conv_node, bn_node))
    for conv_node, bn_node in pairs:
        gm.add_submodule(conv_node.target, fold_conv_bn(gm.get_submodule(conv_node.target),
                                                        gm.get_submodule(bn_node.target)))
        bn_node.replace_all_uses_with(conv_node)
        gm.graph.erase_node(bn_node)
    gm.graph.lint()
    gm.recompile()
    return gm
'''}
