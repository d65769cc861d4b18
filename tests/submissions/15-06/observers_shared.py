"""insert_observers reuses one observer per module name across calls (a module-level cache), so ranges
recorded through an earlier GraphModule leak into a new one."""
EXPECT = {"insert_observers": "fail"}

CELLS = {"insert_observers_impl": '''
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
'''}
