"""Held-out round 27, a correct answer written unusually: insert_observers builds a NEW fx.Graph node by node
(`Graph.node_copy` with an environment that maps each old node to the value its users must read), and right after
copying a call of a module in `op_types` it emits the observer call and maps the old node to the observer, so
every later user (also inside lists, tuples and keyword arguments) reads the observer. Observer names are picked
so that they collide with nothing the traced module already has, and the GraphModule is built from the traced
one (its training flag and the referenced submodules come along). Nothing of `model` is touched. Expected to
pass everywhere."""

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"insert_observers_impl": '''def insert_observers(model: nn.Module, op_types: tuple) -> fx.GraphModule:
    """Trace ``model`` and put a fresh RangeObserver after every call of a module of a type in ``op_types``."""
    traced = fx.symbolic_trace(model)
    graph = fx.Graph()
    graph.set_codegen(copy.deepcopy(traced.graph._codegen))
    env, k = {}, 0
    for node in traced.graph.nodes:
        env[node] = graph.node_copy(node, lambda n: env[n])
        if node.op == "call_module" and isinstance(traced.get_submodule(node.target), op_types):
            while hasattr(traced, f"range_observer_{k}"):
                k += 1
            name = f"range_observer_{k}"
            traced.add_submodule(name, RangeObserver())
            env[node] = graph.call_module(name, args=(env[node],))
    out = fx.GraphModule(traced, graph, class_name=type(traced).__name__)
    out.graph.lint()
    out.recompile()
    return out
'''}
