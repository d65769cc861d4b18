"""Wrong (held-out round 2): registers each folded conv under a new flat name ("stem_0_fused") and points
the conv node at it, instead of keeping the original conv's qualified name ("the fused conv keeping the
original conv's qualified name")."""
EXPECT = {'fuse_conv_bn': 'fail'}
CELLS = {"fuse_conv_bn_impl": '''
def fuse_conv_bn(model: nn.Module) -> fx.GraphModule:
    """Fold every valid Conv2d -> BatchNorm2d pair of an eval-mode ``model``; returns a new GraphModule."""
    if model.training or any(isinstance(m, nn.BatchNorm2d) and m.training for m in model.modules()):
        raise RuntimeError("fuse_conv_bn: fusion needs eval mode; call model.eval() first")
    gm = fx.symbolic_trace(copy.deepcopy(model))
    mods = dict(gm.named_modules())
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
        name = conv_node.target.replace(".", "_") + "_fused"
        gm.add_submodule(name, folded)
        conv_node.target = name
        bn_node.replace_all_uses_with(conv_node)
        gm.graph.erase_node(bn_node)
    gm.graph.lint()
    gm.recompile()
    return gm
'''}
