"""Held-out round 11: aten_ops recognises higher-order operators by a list of names it knows (cond, while_loop,
map_impl, scan), not by type, so other higher-order operators go uncounted, e.g. wrap_with_set_grad_enabled,
which export puts in the graph for a `with torch.no_grad():` block inside forward. Exercise 4's text: "Count a node
when its target is a torch._ops.OpOverload or a torch._ops.HigherOrderOperator"."""

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "pass"}
CELLS = {"op_inventory_impl": '''_HOPS = {"cond", "while_loop", "map_impl", "scan"}


def aten_ops(ep) -> dict:
    """Count the ATen and higher-order operator calls of every graph in the ExportedProgram ``ep``."""
    counts = Counter()
    for gm in ep.graph_module.modules():
        if not isinstance(gm, fx.GraphModule):
            continue
        for node in gm.graph.nodes:
            if node.op == "call_function" and (isinstance(node.target, torch._ops.OpOverload)
                                               or str(node.target) in _HOPS):
                counts[str(node.target)] += 1
    return dict(counts)


def unsupported_ops(ep, supported: set) -> list:
    """The sorted, distinct operator names ``ep`` calls that are not in ``supported``."""
    return sorted(name for name in aten_ops(ep) if name not in supported)
'''}
