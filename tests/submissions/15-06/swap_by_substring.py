"""swap_relu matches by name ("relu" in the target's name): it also replaces F.relu6, and it passes the
original kwargs (inplace=True) on to the new function."""
EXPECT = {"swap_relu": "fail"}

CELLS = {"swap_relu_impl": '''
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
'''}
