"""Correct answers written quite differently from the reference.

- count_ops: a Tracer and a plain loop, listing all six opcodes (zeros included).
- fold_conv_bn: builds a fresh Conv2d from the old one's settings and uses load_state_dict, with the
  scale applied through einsum.
- fuse_conv_bn: points each foldable BatchNorm call at a new nn.Identity (the node stays), instead of erasing
  it (held-out round 6: replacing the BatchNorm module itself broke its other calls when forward calls it again);
  a conv module that forward calls twice is left alone (round 10, as the text now says).
- insert_observers: builds a brand-new Graph with node_copy, adding observer nodes on the way (held-out round 27:
  its observer names skip any name the traced module already has, as the text now asks).
- swap_relu: an fx.Transformer subclass (round 27: an nn.ReLU module called as m(input=x) passes its input in
  kwargs; the transformer read args[0] only).
- recording_backend: a callable class; returns the GraphModule itself and prints with print_readable.
"""
EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}

CELLS = {
    "count_ops_impl": '''
def count_ops(model: nn.Module) -> dict:
    graph = fx.Tracer().trace(model)
    counts = {op: 0 for op in ("placeholder", "get_attr", "call_module", "call_function", "call_method", "output")}
    for node in graph.nodes:
        counts[node.op] += 1
    return counts
''',
    "fold_conv_bn_impl": '''
def fold_conv_bn(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> nn.Conv2d:
    assert not bn.training
    new = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size, stride=conv.stride,
                    padding=conv.padding, dilation=conv.dilation, groups=conv.groups, bias=True,
                    padding_mode=conv.padding_mode, dtype=conv.weight.dtype, device=conv.weight.device)
    inv_std = (bn.running_var + bn.eps).sqrt().reciprocal()
    gamma = bn.weight if bn.weight is not None else torch.ones_like(bn.running_mean)
    beta = bn.bias if bn.bias is not None else torch.zeros_like(bn.running_mean)
    factor = (gamma * inv_std).detach()
    old_bias = conv.bias.detach() if conv.bias is not None else 0.0
    new.load_state_dict({
        "weight": torch.einsum("o...,o->o...", conv.weight.detach(), factor),
        "bias": beta.detach() + factor * (old_bias - bn.running_mean),
    })
    return new
''',
    "fuse_conv_bn_impl": '''
def fuse_conv_bn(model: nn.Module) -> fx.GraphModule:
    for m in [model, *model.modules()]:
        if isinstance(m, (nn.BatchNorm2d,)) and m.training or m is model and m.training:
            raise RuntimeError("Conv+BN folding needs eval mode (BatchNorm in training uses batch statistics)")
    copied = copy.deepcopy(model)
    gm = fx.symbolic_trace(copied)
    named = dict(gm.named_modules())
    for bn_node in gm.graph.nodes:
        if bn_node.op != "call_module" or type(named[bn_node.target]) is not nn.BatchNorm2d:
            continue
        (inp,) = bn_node.args
        if getattr(inp, "op", None) != "call_module" or type(named[inp.target]) is not nn.Conv2d:
            continue
        if list(inp.users) != [bn_node]:
            continue
        if sum(n.op == "call_module" and n.target == inp.target for n in gm.graph.nodes) > 1:
            continue
        conv_path = inp.target.split(".")
        owner = gm
        for part in conv_path[:-1]:
            owner = getattr(owner, part)
        owner._modules[conv_path[-1]] = fold_conv_bn(named[inp.target], named[bn_node.target])
        identity = f"{bn_node.name}_identity"  # a new module: the BatchNorm module may be called elsewhere too
        gm.add_submodule(identity, nn.Identity())
        bn_node.target = identity
        named = dict(gm.named_modules())
    gm.recompile()
    return gm
''',
    "insert_observers_impl": '''
def insert_observers(model: nn.Module, op_types: tuple) -> fx.GraphModule:
    traced = fx.symbolic_trace(model)
    new_graph = fx.Graph()
    env = {}
    root = nn.Module()
    for name, mod in traced.named_children():
        root.add_module(name, mod)
    k = 0
    for node in traced.graph.nodes:
        copied = new_graph.node_copy(node, lambda n: env[n])
        env[node] = copied
        if node.op == "call_module" and isinstance(traced.get_submodule(node.target), op_types):
            while hasattr(traced, f"rng_obs_{k}"):  # round 27: a name the model uses already
                k += 1
            obs_name = f"rng_obs_{k}"
            k += 1
            root.add_module(obs_name, RangeObserver())
            env[node] = new_graph.call_module(obs_name, (copied,))
    for name, p in traced.named_parameters(recurse=False):
        root.register_parameter(name, p)
    for name, b in traced.named_buffers(recurse=False):
        root.register_buffer(name, b)
    return fx.GraphModule(root, new_graph)
''',
    "swap_relu_impl": '''
class _ReluSwapper(fx.Transformer):
    def __init__(self, gm, new_fn):
        super().__init__(gm)
        self.new_fn = new_fn

    def call_module(self, target, args, kwargs):
        if type(self.fetch_attr(target)) is nn.ReLU:
            # round 27: a module called as self.act(input=x) has its input in kwargs
            return self.tracer.create_proxy("call_function", self.new_fn, (args[0] if args else kwargs["input"],), {})
        return super().call_module(target, args, kwargs)

    def call_function(self, target, args, kwargs):
        if target in (F.relu, torch.relu, torch.relu_, F.relu_):  # torch.relu(input=x): the input in kwargs
            return self.tracer.create_proxy("call_function", self.new_fn, (args[0] if args else kwargs["input"],), {})
        return super().call_function(target, args, kwargs)

    def call_method(self, target, args, kwargs):
        if target in ("relu", "relu_"):
            return self.tracer.create_proxy("call_function", self.new_fn, (args[0],), {})
        return super().call_method(target, args, kwargs)


def swap_relu(model: nn.Module, new_fn) -> fx.GraphModule:
    return _ReluSwapper(fx.symbolic_trace(model), new_fn).transform()
''',
    "recording_backend_impl": '''
class _Recorder:
    def __init__(self):
        self.graphs = []

    def __call__(self, gm, example_inputs):
        gm.print_readable()
        self.graphs.append(gm)
        return gm


def make_recording_backend():
    rec = _Recorder()
    return rec, rec.graphs
''',
}
