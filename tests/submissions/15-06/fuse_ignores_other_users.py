"""fuse_conv_bn folds a BatchNorm into its conv even when the conv output also feeds a skip connection."""
EXPECT = {"fuse_conv_bn": "fail"}

CELLS = {"fuse_conv_bn_impl": '''
def fuse_conv_bn(model: nn.Module) -> fx.GraphModule:
    if model.training or any(m.training for m in model.modules()):
        raise RuntimeError("eval mode only")
    gm = fx.symbolic_trace(copy.deepcopy(model))
    for node in list(gm.graph.nodes):
        if node.op != "call_module" or not isinstance(gm.get_submodule(node.target), nn.BatchNorm2d):
            continue
        src = node.args[0]
        if not (src.op == "call_module" and isinstance(gm.get_submodule(src.target), nn.Conv2d)):
            continue
        fused = fold_conv_bn(gm.get_submodule(src.target), gm.get_submodule(node.target))
        parent, _, leaf = src.target.rpartition(".")
        setattr(gm.get_submodule(parent) if parent else gm, leaf, fused)
        node.replace_all_uses_with(src)
        gm.graph.erase_node(node)
    gm.recompile()
    return gm
'''}
