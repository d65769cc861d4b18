"""Correct answers written differently from the reference (must keep full marks).
- count_ops: collections.defaultdict over graph.nodes of a GraphModule built with fx.GraphModule(model, graph).
- fold_conv_bn: torch.nn.utils.parametrize-free arithmetic on a deep copy, the scale broadcast with view_as-
  style reshape and the bias formula written as beta - scale * (mean - b).
- fuse_conv_bn: a new Graph is built node by node with graph_copy-like node_copy, skipping fused BatchNorms
  (a conv module that forward calls twice is left alone: round 10, as the text now says).
- insert_observers: observers named with a counter and inserted with graph.create_node.
- swap_relu: a set of targets per opcode and graph.create_node("call_function", ...).
- recording backend: prints gm.code and returns gm itself (a GraphModule is callable).
"""
EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {
    "count_ops_impl": '''
def count_ops(model: nn.Module) -> dict:
    from collections import defaultdict
    graph = fx.Tracer().trace(model)
    counts = defaultdict(int)
    for node in graph.nodes:
        counts[node.op] += 1
    return dict(counts)
''',
    "fold_conv_bn_impl": '''
def fold_conv_bn(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> nn.Conv2d:
    out = copy.deepcopy(conv)
    with torch.no_grad():
        gamma = bn.weight if bn.affine else torch.ones_like(bn.running_var)  # affine=False: gamma 1, beta 0
        beta = bn.bias if bn.affine else torch.zeros_like(bn.running_mean)
        scale = gamma / (bn.running_var + bn.eps).sqrt()
        shape = [conv.out_channels] + [1] * (conv.weight.dim() - 1)
        b = conv.bias if conv.bias is not None else conv.weight.new_zeros(conv.out_channels)
        new_w = conv.weight * scale.view(shape).to(conv.weight.dtype)
        new_b = (beta - scale * (bn.running_mean - b)).to(conv.weight.dtype)
    out.weight = nn.Parameter(new_w.detach().clone())
    out.bias = nn.Parameter(new_b.detach().clone())
    return out
''',
    "fuse_conv_bn_impl": '''
def fuse_conv_bn(model: nn.Module) -> fx.GraphModule:
    bns = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
    if model.training or any(bn.training for bn in bns):
        raise RuntimeError("Conv/BN fusion requires eval mode (model.eval())")
    root = copy.deepcopy(model)
    old = fx.Tracer().trace(root)
    mods = dict(root.named_modules())

    def foldable(n):
        if n.op != "call_module" or not isinstance(mods[n.target], nn.BatchNorm2d):
            return False
        src = n.args[0] if n.args else None
        return (isinstance(src, fx.Node) and src.op == "call_module" and isinstance(mods[src.target], nn.Conv2d)
                and len(src.users) == 1
                and sum(m.op == "call_module" and m.target == src.target for m in old.nodes) == 1)

    new_graph = fx.Graph()
    env = {}
    for n in old.nodes:
        if foldable(n):
            conv_name = n.args[0].target
            fused = fold_conv_bn(mods[conv_name], mods[n.target])
            parent, _, leaf = conv_name.rpartition(".")
            setattr(root.get_submodule(parent) if parent else root, leaf, fused)
            env[n] = env[n.args[0]]
            continue
        env[n] = new_graph.node_copy(n, lambda a: env[a])
    gm = fx.GraphModule(root, new_graph)
    gm.graph.lint()
    return gm
''',
    "insert_observers_impl": '''
def insert_observers(model: nn.Module, op_types: tuple) -> fx.GraphModule:
    gm = fx.symbolic_trace(model)
    targets = [n for n in gm.graph.nodes
               if n.op == "call_module" and isinstance(gm.get_submodule(n.target), op_types)]
    k = 0
    for node in targets:
        while hasattr(gm, f"range_observer_{k}"):  # a name the model uses already
            k += 1
        name = f"range_observer_{k}"
        gm.add_submodule(name, RangeObserver())
        with gm.graph.inserting_after(node):
            watcher = gm.graph.create_node("call_module", name, (node,), {})
        for user in [u for u in node.users if u is not watcher]:
            user.replace_input_with(node, watcher)
    gm.graph.lint()
    gm.recompile()
    return gm
''',
    "swap_relu_impl": '''
def swap_relu(model: nn.Module, new_fn) -> fx.GraphModule:
    gm = fx.symbolic_trace(model)
    funcs = {F.relu, torch.relu, torch.relu_, F.relu_}
    methods = {"relu", "relu_"}
    doomed = []
    for node in gm.graph.nodes:
        if node.op == "call_module":
            match = isinstance(gm.get_submodule(node.target), nn.ReLU)
        else:
            match = (node.op == "call_function" and node.target in funcs) or \\
                    (node.op == "call_method" and node.target in methods)
        if match:
            doomed.append(node)
    for node in doomed:
        x = node.args[0] if node.args else node.kwargs["input"]
        with gm.graph.inserting_before(node):
            repl = gm.graph.create_node("call_function", new_fn, (x,), {})
        node.replace_all_uses_with(repl)
        gm.graph.erase_node(node)
    gm.graph.lint()
    gm.recompile()
    return gm
''',
    "recording_backend_impl": '''
def make_recording_backend():
    graphs = []

    def backend(gm, example_inputs):
        print(gm.code)
        graphs.append(gm)
        return gm

    return backend, graphs
''',
}
