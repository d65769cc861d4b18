"""export_dynamic_batch gives the Dim only a maximum (no lower bound is checked); aten_ops looks at the
main graph only (misses the branches of cond) and unsupported_ops keeps duplicates in call order."""
EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "fail", "op_inventory": "fail",
          "save_load": "pass"}

CELLS = {
    "export_dynamic_impl": '''
def export_dynamic_batch(model: nn.Module, example: torch.Tensor, min_batch: int, max_batch: int):
    batch = Dim("batch", max=max_batch)
    return torch.export.export(model, (example,), dynamic_shapes=({0: batch},))
''',
    "op_inventory_impl": '''
def aten_ops(ep) -> dict:
    counts = {}
    for node in ep.graph.nodes:
        if node.op == "call_function" and isinstance(node.target, (torch._ops.OpOverload,
                                                                   torch._ops.HigherOrderOperator)):
            counts[str(node.target)] = counts.get(str(node.target), 0) + 1
    return counts


def unsupported_ops(ep, supported: set) -> list:
    return [str(n.target) for n in ep.graph.nodes
            if n.op == "call_function" and str(n.target) not in supported and "getitem" not in str(n.target)]
''',
}
