"""CondBranchyNet stores its layers in an nn.Sequential (parameter names 'mlp.1.weight', ... instead
of fc1/fc2, so BranchyNet's state_dict does not load); aten_ops decomposes the program to Core ATen
before counting (the text says analyse it as given, and not to change ep)."""
EXPECT = {"trace_mismatches": "pass", "cond_net": "fail", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "pass"}

CELLS = {
    "cond_net_impl": '''
class CondBranchyNet(nn.Module):
    def __init__(self, hidden: int = 32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, hidden), nn.ReLU(), nn.Linear(hidden, 10))

    def forward(self, x):
        x = torch.cond(x.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))
        return self.mlp(x)
''',
    "op_inventory_impl": '''
def aten_ops(ep) -> dict:
    ep = ep.run_decompositions()
    counts = Counter()
    for gm in ep.graph_module.modules():
        if isinstance(gm, fx.GraphModule):
            for node in gm.graph.nodes:
                if node.op == "call_function" and isinstance(node.target, (torch._ops.OpOverload,
                                                                           torch._ops.HigherOrderOperator)):
                    counts[str(node.target)] += 1
    return dict(counts)


def unsupported_ops(ep, supported: set) -> list:
    return sorted(name for name in aten_ops(ep) if name not in supported)
''',
}
