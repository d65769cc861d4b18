"""Three realistic mistakes in different tasks; the other tasks are the reference solution.

- count_ops counts the model's modules instead of the graph's call_module nodes
  (a reused module counts once, an unused one counts too).
- fold_conv_bn divides by sqrt(running_var) and forgets eps.
- swap_relu only replaces nn.ReLU modules, not F.relu / torch.relu / x.relu().
"""
EXPECT = {"count_ops": "fail", "fold_conv_bn": "fail", "swap_relu": "fail",
          "insert_observers": "pass", "recording_backend": "pass"}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another

CELLS = {
    "count_ops_impl": '''
def count_ops(model: nn.Module) -> dict:
    gm = fx.symbolic_trace(model)
    counts = dict(Counter(node.op for node in gm.graph.nodes))
    counts["call_module"] = sum(1 for name, _ in model.named_modules() if name)
    return counts
''',
    "fold_conv_bn_impl": '''
def fold_conv_bn(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> nn.Conv2d:
    fused = copy.deepcopy(conv)
    w = conv.weight.detach()
    b = conv.bias.detach() if conv.bias is not None else torch.zeros(conv.out_channels, dtype=w.dtype)
    scale = bn.weight.detach() / torch.sqrt(bn.running_var)
    fused.weight = nn.Parameter(w * scale.reshape(-1, 1, 1, 1))
    fused.bias = nn.Parameter((b - bn.running_mean) * scale + bn.bias.detach())
    return fused
''',
    "swap_relu_impl": '''
def swap_relu(model: nn.Module, new_fn) -> fx.GraphModule:
    gm = fx.symbolic_trace(model)
    for node in list(gm.graph.nodes):
        if node.op == "call_module" and isinstance(gm.get_submodule(node.target), nn.ReLU):
            with gm.graph.inserting_after(node):
                new = gm.graph.call_function(new_fn, args=(node.args[0],))
            node.replace_all_uses_with(new)
            gm.graph.erase_node(node)
    gm.recompile()
    return gm
''',
}
