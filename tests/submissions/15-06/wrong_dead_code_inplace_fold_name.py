"""Known-wrong answers, one per task, written from the notebook text.
- count_ops: runs graph.eliminate_dead_code() before counting, so traced operations whose result is never
  used disappear from the count.
- fold_conv_bn: scales conv.weight in place (then returns a deep copy), so the caller's conv changes.
- fuse_conv_bn: registers the folded conv under a new name ("fused_<conv>") instead of the conv's own
  qualified name.
- insert_observers: names each observer after the module it watches, so a module called twice gets one
  observer shared by both calls (the second add_submodule replaces the first).
- swap_relu: matches ReLU modules by their name ("relu" in node.target) instead of their type.
- recording backend: the list of graphs is created once at module level and shared by every backend.
"""
EXPECT = {"count_ops": "fail", "fold_conv_bn": "fail", "fuse_conv_bn": "fail", "insert_observers": "fail",
          "swap_relu": "fail", "recording_backend": "fail"}
CELLS = {
    "count_ops_impl": '''
def count_ops(model: nn.Module) -> dict:
    gm = fx.symbolic_trace(model)
    gm.graph.eliminate_dead_code()
    counts = {}
    for node in gm.graph.nodes:
        counts[node.op] = counts.get(node.op, 0) + 1
    return counts
''',
    "fold_conv_bn_impl": '''
def fold_conv_bn(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> nn.Conv2d:
    scale = bn.weight.detach() / torch.sqrt(bn.running_var + bn.eps)
    with torch.no_grad():
        conv.weight.mul_(scale.view(-1, 1, 1, 1))
        b = conv.bias.detach() if conv.bias is not None else torch.zeros_like(scale)
    fused = copy.deepcopy(conv)
    fused.bias = nn.Parameter((b - bn.running_mean) * scale + bn.bias.detach())
    return fused
''',
    "fuse_conv_bn_impl": '''
def fuse_conv_bn(model: nn.Module) -> fx.GraphModule:
    if model.training or any(m.training for m in model.modules() if isinstance(m, nn.BatchNorm2d)):
        raise RuntimeError("Conv+BN fusion only works in eval mode")
    gm = fx.symbolic_trace(copy.deepcopy(model))
    for node in list(gm.graph.nodes):
        if node.op != "call_module" or not isinstance(gm.get_submodule(node.target), nn.BatchNorm2d):
            continue
        src = node.args[0]
        if not (isinstance(src, fx.Node) and src.op == "call_module"
                and isinstance(gm.get_submodule(src.target), nn.Conv2d)) or len(src.users) != 1:
            continue
        new_name = "fused_" + src.target.replace(".", "_")
        gm.add_submodule(new_name, fold_conv_bn(gm.get_submodule(src.target), gm.get_submodule(node.target)))
        with gm.graph.inserting_after(src):
            new = gm.graph.call_module(new_name, src.args, src.kwargs)
        node.replace_all_uses_with(new)
        gm.graph.erase_node(node)
        gm.graph.erase_node(src)
    gm.graph.lint()
    gm.recompile()
    return gm
''',
    "insert_observers_impl": '''
def insert_observers(model: nn.Module, op_types: tuple) -> fx.GraphModule:
    gm = fx.symbolic_trace(model)
    for node in list(gm.graph.nodes):
        if node.op == "call_module" and isinstance(gm.get_submodule(node.target), op_types):
            name = node.target.replace(".", "_") + "_observer"
            gm.add_submodule(name, RangeObserver())
            with gm.graph.inserting_after(node):
                obs = gm.graph.call_module(name, args=(node,))
            node.replace_all_uses_with(obs, delete_user_cb=lambda user: user is not obs)
    gm.graph.lint()
    gm.recompile()
    return gm
''',
    "swap_relu_impl": '''
def swap_relu(model: nn.Module, new_fn) -> fx.GraphModule:
    gm = fx.symbolic_trace(model)
    relu_functions = {F.relu, torch.relu, torch.relu_, F.relu_}
    for node in list(gm.graph.nodes):
        if node.op == "call_module":
            hit = "relu" in node.target.lower()
        elif node.op == "call_function":
            hit = node.target in relu_functions
        elif node.op == "call_method":
            hit = node.target in ("relu", "relu_")
        else:
            hit = False
        if not hit:
            continue
        with gm.graph.inserting_after(node):
            new = gm.graph.call_function(new_fn, args=(node.args[0],))
        node.replace_all_uses_with(new)
        gm.graph.erase_node(node)
    gm.graph.lint()
    gm.recompile()
    return gm
''',
    "recording_backend_impl": '''
_ALL_GRAPHS = []


def make_recording_backend():
    def backend(gm, example_inputs):
        gm.print_readable()
        _ALL_GRAPHS.append(gm)
        return gm.forward

    return backend, _ALL_GRAPHS
''',
}
