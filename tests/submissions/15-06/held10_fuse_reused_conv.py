"""Held-out round 10: fuse_conv_bn folds a pair whenever the conv call's output has one user, also when the same
Conv2d module is called a second time elsewhere in forward (a shared conv: once into a BatchNorm2d, once without,
or into two different BatchNorms). Putting the folded conv under the module's name changes every call of it, so
the other call now computes bn(conv(x)) too (or a conv folded twice). torch.fx.experimental.optimization.fuse
does the same. The text's rule for a valid fold (the BatchNorm is the only thing the fold changes: section 3's
"would silently change the skip path too") rules this out; round 10 states it in exercise 3's text."""

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": '''def fuse_conv_bn(model: nn.Module) -> fx.GraphModule:
    if model.training or any(m.training for m in model.modules() if isinstance(m, nn.BatchNorm2d)):
        raise RuntimeError("fuse_conv_bn: Conv+BN fusion is only valid in eval mode; call model.eval() first")
    gm = fx.symbolic_trace(copy.deepcopy(model))
    for node in list(gm.graph.nodes):
        if node.op != "call_module" or not isinstance(gm.get_submodule(node.target), nn.BatchNorm2d):
            continue
        src = node.args[0]
        if not (isinstance(src, fx.Node) and src.op == "call_module"
                and isinstance(gm.get_submodule(src.target), nn.Conv2d)):
            continue
        if len(src.users) != 1:
            continue
        fused = fold_conv_bn(gm.get_submodule(src.target), gm.get_submodule(node.target))
        parent_name, _, leaf = src.target.rpartition(".")
        setattr(gm.get_submodule(parent_name) if parent_name else gm, leaf, fused)
        node.replace_all_uses_with(src)
        gm.graph.erase_node(node)
    gm.graph.lint()
    gm.recompile()
    gm.delete_all_unused_submodules()
    return gm
'''}
