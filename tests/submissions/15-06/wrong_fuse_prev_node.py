"""fuse_conv_bn takes the conv feeding a BatchNorm from node.prev (the node traced just before it) instead
of the BatchNorm's input node.args[0]: right for plain conv -> bn stacks, wrong when another conv runs in
between (it folds the BatchNorm into that other conv)."""
EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {
    "fuse_conv_bn_impl": '''
def fuse_conv_bn(model: nn.Module) -> fx.GraphModule:
    if model.training or any(m.training for m in model.modules() if isinstance(m, nn.BatchNorm2d)):
        raise RuntimeError("fuse_conv_bn: Conv+BN fusion is only valid in eval mode")
    gm = fx.symbolic_trace(copy.deepcopy(model))
    modules = dict(gm.named_modules())
    for node in list(gm.graph.nodes):
        if node.op != "call_module" or not isinstance(modules.get(node.target), nn.BatchNorm2d):
            continue
        conv_node = node.prev
        if conv_node.op != "call_module" or not isinstance(modules.get(conv_node.target), nn.Conv2d):
            continue
        if len(conv_node.users) != 1:
            continue
        fused = fold_conv_bn(modules[conv_node.target], modules[node.target])
        parent, _, leaf = conv_node.target.rpartition(".")
        setattr(gm.get_submodule(parent) if parent else gm, leaf, fused)
        modules[conv_node.target] = fused
        node.replace_all_uses_with(conv_node)
        gm.graph.erase_node(node)
    gm.graph.lint()
    gm.recompile()
    return gm
''',
}
