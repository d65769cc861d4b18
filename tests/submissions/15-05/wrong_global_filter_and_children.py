"""trace_mismatches silences TracerWarning with a global warnings.filterwarnings (no catch_warnings), so the
filter outlives the call; aten_ops walks ep.graph_module.named_children() instead of modules(), so the
branches of a cond nested inside a cond branch are never visited."""
EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "pass"}

CELLS = {
    "trace_mismatches_impl": '''
def trace_mismatches(model: nn.Module, example: torch.Tensor, inputs: list) -> list:
    warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)
    with torch.no_grad():
        traced = torch.jit.trace(model, example)
        return [not torch.allclose(traced(x), model(x)) for x in inputs]
''',
    "op_inventory_impl": '''
def _count(gm, counts):
    for node in gm.graph.nodes:
        if node.op == "call_function" and isinstance(node.target, (torch._ops.OpOverload,
                                                                   torch._ops.HigherOrderOperator)):
            counts[str(node.target)] = counts.get(str(node.target), 0) + 1


def aten_ops(ep) -> dict:
    counts = {}
    _count(ep.graph_module, counts)
    for _, sub in ep.graph_module.named_children():
        if isinstance(sub, fx.GraphModule):
            _count(sub, counts)
    return counts


def unsupported_ops(ep, supported: set) -> list:
    return sorted(set(aten_ops(ep)) - set(supported))
''',
}
