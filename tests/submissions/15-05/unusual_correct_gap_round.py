"""Gap-hunting round (issue 39, 2026-12-02), correct written unusually: trace_mismatches passes the example as a
tuple with check_trace=False and compares with torch.isclose(...).all(); CondBranchyNet's branches are methods;
aten_ops reaches subgraphs through the get_attr nodes that name them, recursively, each graph once (held-out
round 27: a nested_compile_region's subgraph, shared by two graphs, was counted twice); save_exported and
export_dynamic_batch key dynamic_shapes by the forward argument's name read with inspect; save_scripted uses
ScriptModule.save."""
EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {
    "trace_mismatches_impl": '''
def trace_mismatches(model: nn.Module, example: torch.Tensor, inputs: list) -> list:
    """For each input: True where the trace of ``model`` on ``example`` disagrees with eager ``model``."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)
        with torch.no_grad():
            traced = torch.jit.trace(model, (example,), check_trace=False)
            flags = []
            for x in inputs:
                t_out = traced(x)
                e_out = model(x)
                flags.append(not bool(torch.isclose(t_out, e_out).all()))
    return flags
''',
    "cond_net_impl": '''
class CondBranchyNet(nn.Module):
    """BranchyNet without a Python `if` on a tensor value, so that torch.export keeps both sides of the branch."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    @staticmethod
    def _invert(t):
        return 1.0 - t

    @staticmethod
    def _keep(t):
        return t.clone()

    def forward(self, x):
        x = torch.cond(torch.mean(x) > 0.5, self._invert, self._keep, [x])
        return self.fc2(torch.relu(self.fc1(torch.flatten(x, 1))))
''',
    "export_dynamic_impl": '''
def export_dynamic_batch(model: nn.Module, example: torch.Tensor, min_batch: int, max_batch: int):
    """Export ``model`` on ``example`` with dimension 0 dynamic in [min_batch, max_batch]."""
    import inspect
    name = next(iter(inspect.signature(model.forward).parameters))
    return torch.export.export(model, (example,),
                               dynamic_shapes={name: {0: Dim("n", min=min_batch, max=max_batch)}})
''',
    "op_inventory_impl": '''
def aten_ops(ep) -> dict:
    """Count the ATen and higher-order operator calls of every graph in the ExportedProgram ``ep``."""
    counts = Counter()

    seen = set()

    def walk(gm):
        if id(gm) in seen:  # held-out round 27: a subgraph two graphs share is one graph, counted once
            return
        seen.add(id(gm))
        for n in gm.graph.nodes:
            if n.op == "get_attr":
                sub = gm
                for part in n.target.split("."):
                    sub = getattr(sub, part)
                if isinstance(sub, fx.GraphModule):
                    walk(sub)
            elif n.op == "call_function" and isinstance(
                    n.target, (torch._ops.OpOverload, torch._ops.HigherOrderOperator)):
                counts[str(n.target)] += 1

    walk(ep.graph_module)
    return dict(counts)


def unsupported_ops(ep, supported: set) -> list:
    """The sorted, distinct operator names ``ep`` calls that are not in ``supported``."""
    return sorted(set(aten_ops(ep)) - set(supported))
''',
    "save_load_impl": '''
def save_scripted(model: nn.Module, path: str) -> None:
    """Script ``model`` and write it to ``path`` with torch.jit.save."""
    torch.jit.script(model).save(path)


def save_exported(model: nn.Module, example: torch.Tensor, path: str) -> None:
    """Export ``model`` with a dynamic batch (1 to 1024) and write it to ``path`` with torch.export.save."""
    import inspect
    name = next(iter(inspect.signature(model.forward).parameters))
    ep = torch.export.export(model, (example,), dynamic_shapes={name: {0: Dim("batch", min=1, max=1024)}})
    with open(path, "wb") as f:
        torch.export.save(ep, f)
''',
}
