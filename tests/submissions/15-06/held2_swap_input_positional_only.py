"""Wrong (held-out round 2): takes the ReLU's input as node.args[0], so torch.relu(input=x) or torch.relu_(input=x)
(input passed by keyword: fx keeps it in node.kwargs) makes swap_relu raise IndexError ("replace every ReLU ... by a call_function
node calling new_fn on the ReLU's input tensor alone")."""
EXPECT = {'swap_relu': 'fail'}
CELLS = {"swap_relu_impl": '''
def swap_relu(model: nn.Module, new_fn) -> fx.GraphModule:
    """Trace ``model`` and replace every ReLU (module, function or method form) by a call of ``new_fn``."""
    gm = fx.symbolic_trace(copy.deepcopy(model))
    for node in list(gm.graph.nodes):
        if not ((node.op == "call_module" and isinstance(gm.get_submodule(node.target), nn.ReLU))
                or (node.op == "call_function" and node.target in (F.relu, torch.relu, torch.relu_))
                or (node.op == "call_method" and node.target in ("relu", "relu_"))):
            continue
        inp = node.args[0]
        with gm.graph.inserting_after(node):
            new = gm.graph.call_function(new_fn, args=(inp,))
        node.replace_all_uses_with(new)
        gm.graph.erase_node(node)
    gm.graph.lint()
    gm.recompile()
    return gm
'''}
