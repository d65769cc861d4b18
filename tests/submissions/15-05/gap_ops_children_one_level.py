"""Gap-hunting round (issue 39, 2026-12-02): aten_ops walks the main graph and its direct child graph modules
(`ep.graph_module.children()`), so a torch.cond nested inside a branch of another is counted but its own
branches are not. Breaks: "Count the nodes of **every** graph in the program ... (all `fx.GraphModule`s among
`ep.graph_module.modules()`)"."""
CELLS = {"op_inventory_impl": '''
def aten_ops(ep) -> dict:
    """Count the ATen and higher-order operator calls of every graph in the ExportedProgram ``ep``."""
    counts = {}
    graphs = [ep.graph_module] + [m for m in ep.graph_module.children() if isinstance(m, fx.GraphModule)]
    for gm in graphs:
        for n in gm.graph.nodes:
            if n.op == "call_function" and isinstance(n.target, (torch._ops.OpOverload,
                                                                  torch._ops.HigherOrderOperator)):
                counts[str(n.target)] = counts.get(str(n.target), 0) + 1
    return counts


def unsupported_ops(ep, supported: set) -> list:
    """The sorted, distinct operator names ``ep`` calls that are not in ``supported``."""
    return sorted(name for name in aten_ops(ep) if name not in supported)
'''}
EXPECT = {"op_inventory": "fail"}
