"""Correct, written differently (held-out round 2): count_ops as a Counter over the traced nodes; the fold
computed in float64 and cast back to conv's dtype on conv's device; fuse_conv_bn collecting every valid
pair before rewriting any (round 10: a conv module called twice is left alone, as the text now says); observers named range_observer_<k> past any existing name; swap_relu taking
the input from args or the 'input' keyword; a backend that prints gm.code."""
EXPECT = {'count_ops': 'pass', 'recording_backend': 'pass', 'swap_relu': 'pass', 'insert_observers': 'pass', 'fold_conv_bn': 'pass', 'fuse_conv_bn': 'pass'}
CELLS = {"count_ops_impl": '''
def count_ops(model: nn.Module) -> dict:
    """Trace ``model`` with torch.fx and count its graph nodes by opcode."""
    return dict(Counter(n.op for n in fx.symbolic_trace(model).graph.nodes))
''', "recording_backend_impl": '''
def make_recording_backend():
    """Return (backend, graphs): a torch.compile backend that prints and records each FX graph it receives."""
    graphs = []

    def backend(gm, example_inputs):
        print(gm.code)
        graphs.append(gm)
        return gm.forward

    return backend, graphs
''', "swap_relu_impl": '''
def swap_relu(model: nn.Module, new_fn) -> fx.GraphModule:
    """Trace ``model`` and replace every ReLU (module, function or method form) by a call of ``new_fn``."""
    gm = fx.symbolic_trace(copy.deepcopy(model))
    for node in list(gm.graph.nodes):
        if not ((node.op == "call_module" and isinstance(gm.get_submodule(node.target), nn.ReLU))
                or (node.op == "call_function" and node.target in (F.relu, torch.relu, torch.relu_))
                or (node.op == "call_method" and node.target in ("relu", "relu_"))):
            continue
        inp = node.args[0] if node.args else node.kwargs["input"]
        with gm.graph.inserting_after(node):
            new = gm.graph.call_function(new_fn, args=(inp,))
        node.replace_all_uses_with(new)
        gm.graph.erase_node(node)
    gm.graph.lint()
    gm.recompile()
    return gm
''', "insert_observers_impl": '''
def insert_observers(model: nn.Module, op_types: tuple) -> fx.GraphModule:
    """Trace ``model`` and put a fresh RangeObserver after every call of a module of a type in ``op_types``."""
    gm = fx.symbolic_trace(copy.deepcopy(model))
    k = 0
    for node in list(gm.graph.nodes):
        if node.op == "call_module" and isinstance(gm.get_submodule(node.target), op_types):
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
''', "fold_conv_bn_impl": '''
def fold_conv_bn(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> nn.Conv2d:
    """A new Conv2d equal to ``bn(conv(x))`` for an eval-mode ``bn``; ``conv`` and ``bn`` are unchanged."""
    w = conv.weight.detach()
    dt, dev = w.dtype, w.device
    f64 = dict(dtype=torch.float64, device=dev)
    mean = bn.running_mean.detach().to(**f64)
    var = bn.running_var.detach().to(**f64)
    gamma = bn.weight.detach().to(**f64) if bn.weight is not None else torch.ones_like(var)
    beta = bn.bias.detach().to(**f64) if bn.bias is not None else torch.zeros_like(var)
    b = conv.bias.detach().to(**f64) if conv.bias is not None else torch.zeros_like(mean)
    s = gamma / torch.sqrt(var + bn.eps)
    new = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size, stride=conv.stride,
                    padding=conv.padding, dilation=conv.dilation, groups=conv.groups, bias=True,
                    padding_mode=conv.padding_mode, device=dev, dtype=dt)
    new.weight = nn.Parameter((w.to(**f64) * s.reshape(-1, 1, 1, 1)).to(dt))
    new.bias = nn.Parameter((s * (b - mean) + beta).to(dt))
    return new
''', "fuse_conv_bn_impl": '''
def fuse_conv_bn(model: nn.Module) -> fx.GraphModule:
    """Fold every valid Conv2d -> BatchNorm2d pair of an eval-mode ``model``; returns a new GraphModule."""
    if model.training or any(isinstance(m, nn.BatchNorm2d) and m.training for m in model.modules()):
        raise RuntimeError("fuse_conv_bn: fusion needs eval mode; call model.eval() first")
    gm = fx.symbolic_trace(copy.deepcopy(model))
    mods = dict(gm.named_modules())
    calls = Counter(n.target for n in gm.graph.nodes if n.op == "call_module")
    pairs = []
    for n in gm.graph.nodes:
        if n.op != "call_module" or not isinstance(mods[n.target], nn.BatchNorm2d) or len(n.args) != 1:
            continue
        src = n.args[0]
        if isinstance(src, fx.Node) and src.op == "call_module" and isinstance(mods[src.target], nn.Conv2d) \
                and len(src.users) == 1 and calls[src.target] == 1:
            pairs.append((src, n))
    for conv_node, bn_node in pairs:
        folded = fold_conv_bn(mods[conv_node.target], mods[bn_node.target])
        parent, _, name = conv_node.target.rpartition(".")
        setattr(gm.get_submodule(parent) if parent else gm, name, folded)
        bn_node.replace_all_uses_with(conv_node)
        gm.graph.erase_node(bn_node)
    gm.graph.lint()
    gm.recompile()
    return gm
'''}
