"""Cells of the eighth held-out writer's own 15-05 solution (written from the notebook's text alone), which the
held8_* specs edit one sentence at a time.

Not a spec itself (the leading underscore keeps it out of the verdict runs)."""

TRACE = '''
def trace_mismatches(model: nn.Module, example: torch.Tensor, inputs: list) -> list:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        with torch.no_grad():
            traced = torch.jit.trace(model, example)
            result = []
            for x in inputs:
                result.append(not torch.allclose(traced(x), model(x)))
    return result
'''

COND = '''
class CondBranchyNet(nn.Module):
    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        x = torch.cond(x.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))
        return self.fc2(torch.relu(self.fc1(x.flatten(1))))
'''

EXPORT = '''
def export_dynamic_batch(model: nn.Module, example: torch.Tensor, min_batch: int, max_batch: int):
    batch = Dim("n", min=min_batch, max=max_batch)
    return torch.export.export(model, (example,), dynamic_shapes=({0: batch},))
'''

OPS = '''
def aten_ops(ep) -> dict:
    counts = {}
    for gm in ep.graph_module.modules():
        if not isinstance(gm, fx.GraphModule):
            continue
        for node in gm.graph.nodes:
            if node.op == "call_function" and isinstance(
                    node.target, (torch._ops.OpOverload, torch._ops.HigherOrderOperator)):
                name = str(node.target)
                counts[name] = counts.get(name, 0) + 1
    return counts


def unsupported_ops(ep, supported: set) -> list:
    return sorted(name for name in aten_ops(ep) if name not in supported)
'''

SAVE = '''
def save_scripted(model: nn.Module, path: str) -> None:
    torch.jit.save(torch.jit.script(model), path)


def save_exported(model: nn.Module, example: torch.Tensor, path: str) -> None:
    ep = torch.export.export(model, (example,), dynamic_shapes=({0: Dim("batch", min=1, max=1024)},))
    torch.export.save(ep, path)
'''


def edit(source: str, old: str, new: str) -> str:
    """``source`` with the one occurrence of ``old`` replaced (loud when the text above changes)."""
    if source.count(old) != 1:
        raise ValueError(f"{old!r} occurs {source.count(old)} times")
    return source.replace(old, new)
