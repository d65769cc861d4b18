"""Wrong (held-out round 2): also observes the functional forms of the module types asked for (F.relu for
nn.ReLU, F.linear for nn.Linear, F.conv2d for nn.Conv2d) ("Only module calls are observed (a functional
F.relu is not an nn.ReLU module)")."""
EXPECT = {'insert_observers': 'fail'}
CELLS = {"insert_observers_impl": '''
def insert_observers(model: nn.Module, op_types: tuple) -> fx.GraphModule:
    """Trace ``model`` and put a fresh RangeObserver after every call of a module of a type in ``op_types``."""
    gm = fx.symbolic_trace(copy.deepcopy(model))
    k = 0
    for node in list(gm.graph.nodes):
        functional = {nn.ReLU: (F.relu, torch.relu), nn.Linear: (F.linear,), nn.Conv2d: (F.conv2d,),
                      nn.Tanh: (torch.tanh,), nn.Sigmoid: (torch.sigmoid,)}
        fns = [f for t in op_types for f in functional.get(t, ())]
        if (node.op == "call_module" and isinstance(gm.get_submodule(node.target), op_types)) or \
                (node.op == "call_function" and node.target in fns):
            while hasattr(gm, f"range_observer_{k}"):
                k += 1
            name = f"range_observer_{k}"
            gm.add_submodule(name, RangeObserver())
            with gm.graph.inserting_after(node):
                obs = gm.graph.call_module(name, args=(node,))
            node.replace_all_uses_with(obs, delete_user_cb=lambda user, obs=obs: user is not obs)
    gm.graph.lint()
    gm.recompile()
    return gm
'''}
