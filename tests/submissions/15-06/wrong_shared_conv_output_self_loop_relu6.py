"""Known-wrong implementations, one per task (tasks differ, so they can share a notebook).

- fuse ignores other users: fuse_conv_bn folds a BatchNorm into its conv even when the conv output also feeds a skip connection.
- observers self loop: insert_observers calls replace_all_uses_with(obs) without delete_user_cb: the observer is rewired to consume itself, a cycle.
- swap by substring: swap_relu matches by name ("relu" in the target's name): it also replaces F.relu6, and it passes the original kwargs (inplace=True) on to the new function.
"""
# insert_observers 'fail', not 'zero': it leaves the caller's model unchanged, which test_model_left_unchanged rightly accepts
EXPECT = {'fuse_conv_bn': 'fail', 'insert_observers': 'fail', 'swap_relu': 'fail'}

CELLS = {
    'fuse_conv_bn_impl': '''
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
            node.replace_all_uses_with(obs)
    gm.recompile()
    return gm
''',
    'swap_relu_impl': '''
def swap_relu(model: nn.Module, new_fn) -> fx.GraphModule:
    gm = fx.symbolic_trace(model)
    for node in list(gm.graph.nodes):
        if node.op == "call_module":
            name = type(gm.get_submodule(node.target)).__name__.lower()
        elif node.op in ("call_function", "call_method"):
            name = node.target if isinstance(node.target, str) else node.target.__name__
        else:
            continue
        if "relu" in name and "leaky" not in name:
            with gm.graph.inserting_after(node):
                new = gm.graph.call_function(new_fn, args=(node.args[0],))
            node.replace_all_uses_with(new)
            gm.graph.erase_node(node)
    gm.recompile()
    return gm
''',
}
