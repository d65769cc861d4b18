"""insert_observers calls replace_all_uses_with(obs) without delete_user_cb: the observer is rewired to
consume itself, a cycle."""
EXPECT = {"insert_observers": "zero"}

CELLS = {"insert_observers_impl": '''
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
'''}
