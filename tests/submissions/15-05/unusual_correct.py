"""Correct for every task, written differently from the reference:

- trace_mismatches: traces with check_trace=False on an (example,) tuple, compares with
  torch.isclose(...).all() (the same default tolerances as allclose), silences warnings with a filter
  on the TracerWarning category through warnings.filterwarnings inside catch_warnings.
- CondBranchyNet: branch-free torch.where on the whole batch, F.linear with the layers' weights, rows reshaped to
  fc1.in_features (held-out round 27: was reshape(x.shape[0], -1), which raises on an empty batch).
- export_dynamic_batch: dynamic_shapes as a dict keyed by forward's first argument name (inspect).
- aten_ops: walks subgraphs through get_attr nodes recursively instead of modules(), each graph once (held-out
  round 27: a subgraph shared by two graphs was counted twice).
- save_scripted: ScriptModule.save; save_exported: Dim objects named after the model, dict form.
"""
EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}

CELLS = {
    "trace_mismatches_impl": '''
def trace_mismatches(model: nn.Module, example: torch.Tensor, inputs: list) -> list:
    result = []
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)
        with torch.no_grad():
            frozen = torch.jit.trace(model, (example,), check_trace=False)
            for x in inputs:
                same = torch.isclose(frozen(x), model(x)).all().item()
                result.append(not same)
    return result
''',
    "cond_net_impl": '''
import torch.nn.functional as F


class CondBranchyNet(nn.Module):
    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(784, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        flip = x.mean() > 0.5
        x = torch.where(flip, 1.0 - x, x)
        h = F.relu(F.linear(x.reshape(-1, self.fc1.in_features), self.fc1.weight, self.fc1.bias))
        return F.linear(h, self.fc2.weight, self.fc2.bias)
''',
    "export_dynamic_impl": '''
import inspect


def export_dynamic_batch(model: nn.Module, example: torch.Tensor, min_batch: int, max_batch: int):
    arg = next(iter(inspect.signature(model.forward).parameters))
    n = torch.export.Dim("n", min=min_batch, max=max_batch)
    return torch.export.export(model, args=(example,), dynamic_shapes={arg: {0: n}})
''',
    "op_inventory_impl": '''
def _walk(gm, counts, seen):
    if id(gm) in seen:  # a subgraph two graphs share (a nested_compile_region's) is one graph: counted once
        return
    seen.add(id(gm))
    for node in gm.graph.nodes:
        if node.op == "get_attr":
            sub = getattr(gm, node.target)
            if isinstance(sub, fx.GraphModule):
                _walk(sub, counts, seen)
        elif node.op == "call_function":
            t = node.target
            if isinstance(t, torch._ops.OpOverload) or isinstance(t, torch._ops.HigherOrderOperator):
                counts[str(t)] = counts.get(str(t), 0) + 1


def aten_ops(ep) -> dict:
    counts = {}
    _walk(ep.graph_module, counts, set())
    return counts


def unsupported_ops(ep, supported: set) -> list:
    missing = set(aten_ops(ep)) - set(supported)
    return sorted(missing)
''',
    "save_load_impl": '''
def save_scripted(model: nn.Module, path: str) -> None:
    script = torch.jit.script(model)
    script.save(path)


def save_exported(model: nn.Module, example: torch.Tensor, path: str) -> None:
    import inspect
    name = next(iter(inspect.signature(model.forward).parameters))
    program = torch.export.export(model, (example,),
                                  dynamic_shapes={name: {0: torch.export.Dim("rows", min=1, max=1024)}})
    torch.export.save(program, path)
''',
}
