"""Known-wrong implementations, one per task (tasks differ, so they can share a notebook).

- fuse edits weights in place: fuse_conv_bn traces the model without copying it and writes the folded weights into the shared conv modules, so the caller's model is changed (and double-normalised).
- observers shared: insert_observers reuses one observer per module name across calls (a module-level cache), so ranges recorded through an earlier GraphModule leak into a new one.
"""
EXPECT = {'fuse_conv_bn': 'fail', 'insert_observers': 'fail'}

CELLS = {
    'fuse_conv_bn_impl': '''
def fuse_conv_bn(model: nn.Module) -> fx.GraphModule:
    if model.training or any(m.training for m in model.modules()):
        raise RuntimeError("eval mode only")
    gm = fx.symbolic_trace(model)
    for node in list(gm.graph.nodes):
        if node.op != "call_module" or not isinstance(gm.get_submodule(node.target), nn.BatchNorm2d):
            continue
        src = node.args[0]
        if not (src.op == "call_module" and isinstance(gm.get_submodule(src.target), nn.Conv2d)) \
                or len(src.users) != 1:
            continue
        conv = gm.get_submodule(src.target)
        fused = fold_conv_bn(conv, gm.get_submodule(node.target))
        with torch.no_grad():
            conv.weight.copy_(fused.weight)
            if conv.bias is None:
                conv.bias = fused.bias
            else:
                conv.bias.copy_(fused.bias)
        node.replace_all_uses_with(src)
        gm.graph.erase_node(node)
    gm.recompile()
    return gm
''',
    'insert_observers_impl': '''
_OBSERVERS = {}

def insert_observers(model: nn.Module, op_types: tuple) -> fx.GraphModule:
    gm = fx.symbolic_trace(model)
    for node in list(gm.graph.nodes):
        if node.op == "call_module" and isinstance(gm.get_submodule(node.target), op_types):
            name = "observer_" + node.name
            gm.add_submodule(name, _OBSERVERS.setdefault(name, RangeObserver()))
            with gm.graph.inserting_after(node):
                obs = gm.graph.call_module(name, args=(node,))
            node.replace_all_uses_with(obs, delete_user_cb=lambda user: user is not obs)
    gm.recompile()
    return gm
''',
}
