"""Known-wrong implementations, one per task (tasks differ, so they can share a notebook).

- fuse in training mode: fuse_conv_bn without the eval-mode check: folds BatchNorm even when the model is training.
- observers no recompile: insert_observers edits the graph but never calls gm.recompile(): the generated forward still runs the old code, so the observers never see any data.
"""
EXPECT = {'fold_conv_bn': 'pass', 'fuse_conv_bn': 'fail', 'insert_observers': 'fail'}  # placement-only checks (subclass, users in lists) still pass

CELLS = {
    'fuse_conv_bn_impl': '''
def fuse_conv_bn(model: nn.Module) -> fx.GraphModule:
    gm = fx.symbolic_trace(copy.deepcopy(model))
    for node in list(gm.graph.nodes):
        if node.op != "call_module" or not isinstance(gm.get_submodule(node.target), nn.BatchNorm2d):
            continue
        src = node.args[0]
        if not (isinstance(src, fx.Node) and src.op == "call_module"
                and isinstance(gm.get_submodule(src.target), nn.Conv2d)) or len(src.users) != 1:
            continue
        fused = fold_conv_bn(gm.get_submodule(src.target), gm.get_submodule(node.target))
        parent, _, leaf = src.target.rpartition(".")
        setattr(gm.get_submodule(parent) if parent else gm, leaf, fused)
        node.replace_all_uses_with(src)
        gm.graph.erase_node(node)
    gm.recompile()
    return gm
''',
    'insert_observers_impl': '''
def insert_observers(model: nn.Module, op_types: tuple) -> fx.GraphModule:
    gm = fx.symbolic_trace(model)
    for node in list(gm.graph.nodes):
        if node.op == "call_module" and isinstance(gm.get_submodule(node.target), op_types):
            name = "observer_" + node.name
            gm.add_submodule(name, RangeObserver())
            with gm.graph.inserting_after(node):
                obs = gm.graph.call_module(name, args=(node,))
            node.replace_all_uses_with(obs, delete_user_cb=lambda user: user is not obs)
    return gm
''',
}
