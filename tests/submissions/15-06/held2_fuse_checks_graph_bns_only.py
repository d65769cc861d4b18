"""Wrong (held-out round 2): checks the training mode of the model and of the BatchNorm2d modules the graph
calls, so a BatchNorm2d inside the model that forward never calls may be in training mode ("If model, or
any BatchNorm2d inside it, is in training mode, raise")."""
EXPECT = {'fuse_conv_bn': 'fail'}
CELLS = {"fuse_conv_bn_impl": '''
def fuse_conv_bn(model: nn.Module) -> fx.GraphModule:
    """Fold every valid Conv2d -> BatchNorm2d pair of an eval-mode ``model``; returns a new GraphModule."""
    if model.training:
        raise RuntimeError("fuse_conv_bn: fusion needs eval mode; call model.eval() first")
    gm = fx.symbolic_trace(copy.deepcopy(model))
    mods = dict(gm.named_modules())
    for n in gm.graph.nodes:
        if n.op == "call_module" and isinstance(mods[n.target], nn.BatchNorm2d) and mods[n.target].training:
            raise RuntimeError(f"fuse_conv_bn: fusion needs eval mode, but {n.target} is in training mode")
    pairs = []
    for n in gm.graph.nodes:
        if n.op != "call_module" or not isinstance(mods[n.target], nn.BatchNorm2d) or len(n.args) != 1:
            continue
        src = n.args[0]
        if isinstance(src, fx.Node) and src.op == "call_module" and isinstance(mods[src.target], nn.Conv2d) \
                and len(src.users) == 1:
            pairs.append((src, n))
    for conv_node, bn_node in pairs:
        folded = fold_conv_bn(mods[conv_node.target], mods[bn_node.target])
        parent, _, name = conv_node.target.rpartition(".")
        setattr(gm.get_submodule(parent) if parent else gm, name, folded)
        bn_node.replace_all_uses_with(conv_node)
        gm.graph.erase_node(bn_node)
    gm.graph.lint()
    gm.recompile()
    return gm
'''}
