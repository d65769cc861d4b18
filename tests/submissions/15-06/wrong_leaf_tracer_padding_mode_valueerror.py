"""Known-wrong answers, one per task, written from the notebook text.
- count_ops: traces with a Tracer whose is_leaf_module is always True, so an nn.Sequential is one
  call_module node instead of one per layer.
- fold_conv_bn: rebuilds the conv from its settings but forgets padding_mode (a 'reflect' conv becomes a
  zero-padded one).
- fuse_conv_bn: raises ValueError (not RuntimeError) for a model in training mode.
- insert_observers: rewires the users by rewriting their top-level args only, so a user that receives the
  node inside a list (torch.cat([h, x])) or as a keyword keeps reading the unobserved value.
- swap_relu: inserts the replacement but never erases the old ReLU node; an in-place ReLU left in the graph
  still runs and changes the tensor before new_fn sees it.
- recording backend: inserts each new graph at the front of the list, so the graphs come out in reverse order.
"""
EXPECT = {"count_ops": "fail", "fold_conv_bn": "fail", "fuse_conv_bn": "fail", "insert_observers": "fail",
          "swap_relu": "fail", "recording_backend": "fail"}
CELLS = {
    "count_ops_impl": '''
class _KeepAllModules(fx.Tracer):
    def is_leaf_module(self, m, qualname):
        return True


def count_ops(model: nn.Module) -> dict:
    graph = _KeepAllModules().trace(model)
    return dict(Counter(n.op for n in graph.nodes))
''',
    "fold_conv_bn_impl": '''
def fold_conv_bn(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> nn.Conv2d:
    w = conv.weight.detach()
    fused = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride, conv.padding,
                      conv.dilation, conv.groups, bias=True, device=w.device, dtype=w.dtype)
    inv_std = torch.rsqrt(bn.running_var + bn.eps)
    scale = bn.weight.detach() * inv_std
    b = conv.bias.detach() if conv.bias is not None else torch.zeros_like(scale)
    with torch.no_grad():
        fused.weight.copy_(w * scale.reshape(-1, 1, 1, 1))
        fused.bias.copy_(bn.bias.detach() + (b - bn.running_mean) * scale)
    return fused
''',
    "fuse_conv_bn_impl": '''
def fuse_conv_bn(model: nn.Module) -> fx.GraphModule:
    if model.training or any(isinstance(m, nn.BatchNorm2d) and m.training for m in model.modules()):
        raise ValueError("fusion needs eval mode: call model.eval() first")
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
    gm.graph.lint()
    gm.recompile()
    return gm
''',
    "insert_observers_impl": '''
def insert_observers(model: nn.Module, op_types: tuple) -> fx.GraphModule:
    gm = fx.symbolic_trace(model)
    count = 0
    for node in list(gm.graph.nodes):
        if node.op != "call_module" or not isinstance(gm.get_submodule(node.target), op_types):
            continue
        name = f"observer{count}"
        count += 1
        gm.add_submodule(name, RangeObserver())
        users = list(node.users)
        with gm.graph.inserting_after(node):
            obs = gm.graph.call_module(name, args=(node,))
        for user in users:
            user.args = tuple(obs if a is node else a for a in user.args)
    gm.graph.lint()
    gm.recompile()
    return gm
''',
    "swap_relu_impl": '''
def swap_relu(model: nn.Module, new_fn) -> fx.GraphModule:
    gm = fx.symbolic_trace(model)
    for node in list(gm.graph.nodes):
        is_relu = ((node.op == "call_module" and isinstance(gm.get_submodule(node.target), nn.ReLU))
                   or (node.op == "call_function" and node.target in (F.relu, torch.relu, torch.relu_, F.relu_))
                   or (node.op == "call_method" and node.target in ("relu", "relu_")))
        if is_relu:
            with gm.graph.inserting_after(node):
                new = gm.graph.call_function(new_fn, args=(node.args[0],))
            node.replace_all_uses_with(new)
    gm.graph.lint()
    gm.recompile()
    return gm
''',
    "recording_backend_impl": '''
def make_recording_backend():
    graphs = []

    def backend(gm: fx.GraphModule, example_inputs):
        print(gm.graph)
        graphs.insert(0, gm)
        return gm.forward

    return backend, graphs
''',
}
