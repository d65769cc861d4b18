"""trace_mismatches returns 0-dim bool tensors instead of Python bools; aten_ops counts every
call_function node (operator.getitem too); save_exported exports without a dynamic batch."""
EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "fail"}

CELLS = {
    "trace_mismatches_impl": '''
def trace_mismatches(model: nn.Module, example: torch.Tensor, inputs: list) -> list:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        with torch.no_grad():
            traced = torch.jit.trace(model, example)
            return [~torch.isclose(traced(x), model(x)).all() for x in inputs]
''',
    "op_inventory_impl": '''
def aten_ops(ep) -> dict:
    counts = Counter()
    for gm in ep.graph_module.modules():
        if isinstance(gm, fx.GraphModule):
            for node in gm.graph.nodes:
                if node.op == "call_function":
                    counts[str(node.target)] += 1
    return dict(counts)


def unsupported_ops(ep, supported: set) -> list:
    return sorted(name for name in aten_ops(ep) if name not in supported)
''',
    "save_load_impl": '''
def save_scripted(model: nn.Module, path: str) -> None:
    torch.jit.save(torch.jit.script(model), path)


def save_exported(model: nn.Module, example: torch.Tensor, path: str) -> None:
    torch.export.save(torch.export.export(model, (example,)), path)
''',
}
