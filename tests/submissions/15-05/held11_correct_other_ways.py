"""Held-out round 11, correct in other words: catch_warnings(action="ignore", category=TracerWarning) (Python 3.11)
and `not torch.isclose(t, e).all().item()` (torch.allclose is exactly isclose(...).all()); the inversion as
t.neg().add(1.0) (1 + (-t) rounds as 1 - t); dynamic_shapes as a list and a Dim named "n"; operators recognised as
torch._ops.OperatorBase (whose subclasses are OpOverload and HigherOrderOperator) over named_modules(), and
set difference for unsupported_ops; ScriptModule.save and a pathlib.Path for torch.export.save."""

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {
    "trace_mismatches_impl": '''def trace_mismatches(model: nn.Module, example: torch.Tensor, inputs: list) -> list:
    with warnings.catch_warnings(action="ignore", category=torch.jit.TracerWarning), torch.no_grad():
        traced = torch.jit.trace(model, example)
        flags = []
        for x in inputs:
            flags.append(not torch.isclose(traced(x), model(x)).all().item())
        return flags
''',
    "cond_net_impl": '''class CondBranchyNet(nn.Module):
    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        def flip(t):
            return t.neg().add(1.0)

        def keep(t):
            return t.clone()

        x = torch.cond(x.mean() > 0.5, flip, keep, (x,))
        return self.fc2(torch.relu(self.fc1(x.flatten(1))))
''',
    "export_dynamic_impl": '''def export_dynamic_batch(model: nn.Module, example: torch.Tensor, min_batch: int, max_batch: int):
    n = Dim("n", min=min_batch, max=max_batch)
    return torch.export.export(model, (example,), dynamic_shapes=[{0: n}])
''',
    "op_inventory_impl": '''def aten_ops(ep) -> dict:
    counts = {}
    for _, gm in ep.graph_module.named_modules():
        if isinstance(gm, fx.GraphModule):
            for node in gm.graph.nodes:
                if node.op == "call_function" and isinstance(node.target, torch._ops.OperatorBase):
                    counts[str(node.target)] = counts.get(str(node.target), 0) + 1
    return counts


def unsupported_ops(ep, supported: set) -> list:
    return sorted(set(aten_ops(ep)).difference(supported))
''',
    "save_load_impl": '''import pathlib


def save_scripted(model: nn.Module, path: str) -> None:
    torch.jit.script(model).save(path)


def save_exported(model: nn.Module, example: torch.Tensor, path: str) -> None:
    ep = torch.export.export(model, (example,), dynamic_shapes=[{0: Dim("batch", min=1, max=1024)}])
    torch.export.save(ep, pathlib.Path(path))
''',
}
