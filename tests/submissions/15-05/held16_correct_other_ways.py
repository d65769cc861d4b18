"""Round 16: correct answers written differently: trace_mismatches with torch.isclose(...).all() and a filter
added by filterwarnings inside catch_warnings, trace and eager calls in separate loops; CondBranchyNet with a
branch-free torch.where; export_dynamic_batch naming the argument through inspect; aten_ops walking
named_modules(); unsupported_ops as a sorted set difference; save_exported with the Dim
passed by the argument's name."""
import textwrap

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {
    "trace_mismatches_impl": textwrap.dedent('''\
        def trace_mismatches(model: nn.Module, example: torch.Tensor, inputs: list) -> list:
            """For each input: True where the trace of ``model`` on ``example`` disagrees with eager ``model``."""
            with torch.no_grad(), warnings.catch_warnings():
                warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)
                traced = torch.jit.trace(model, example)
                from_trace = [traced(x) for x in inputs]
                from_eager = [model(x) for x in inputs]
            return [not bool(torch.isclose(t, e).all()) for t, e in zip(from_trace, from_eager)]
        '''),
    "cond_net_impl": textwrap.dedent('''\
        class CondBranchyNet(nn.Module):
            """BranchyNet without a Python `if` on a tensor value, so that torch.export keeps both sides of the branch."""

            def __init__(self, hidden: int = 32):
                super().__init__()
                self.fc1 = nn.Linear(28 * 28, hidden)
                self.fc2 = nn.Linear(hidden, 10)

            def forward(self, x):
                x = torch.where(x.mean() > 0.5, 1.0 - x, x)
                return self.fc2(torch.relu(self.fc1(torch.flatten(x, start_dim=1))))
        '''),
    "export_dynamic_impl": textwrap.dedent('''\
        def export_dynamic_batch(model: nn.Module, example: torch.Tensor, min_batch: int, max_batch: int):
            """Export ``model`` on ``example`` with dimension 0 dynamic in [min_batch, max_batch]."""
            import inspect
            name = next(iter(inspect.signature(model.forward).parameters))
            return torch.export.export(model, (example,),
                                       dynamic_shapes={name: {0: Dim("rows", min=min_batch, max=max_batch)}})
        '''),
    "op_inventory_impl": textwrap.dedent('''\
        def aten_ops(ep) -> dict:
            """Count the ATen and higher-order operator calls of every graph in the ExportedProgram ``ep``."""
            kinds = (torch._ops.OpOverload, torch._ops.HigherOrderOperator)
            out = {}
            for _, gm in ep.graph_module.named_modules():
                if isinstance(gm, fx.GraphModule):
                    for node in gm.graph.nodes:
                        if node.op == "call_function" and isinstance(node.target, kinds):
                            out[str(node.target)] = out.get(str(node.target), 0) + 1
            return out


        def unsupported_ops(ep, supported: set) -> list:
            """The sorted, distinct operator names ``ep`` calls that are not in ``supported``."""
            return sorted(set(aten_ops(ep)) - set(supported))
        '''),
    "save_load_impl": textwrap.dedent('''\
        def save_scripted(model: nn.Module, path: str) -> None:
            """Script ``model`` and write it to ``path`` with torch.jit.save."""
            scripted = torch.jit.script(model)
            scripted.save(path)


        def save_exported(model: nn.Module, example: torch.Tensor, path: str) -> None:
            """Export ``model`` with a dynamic batch (1 to 1024) and write it to ``path`` with torch.export.save."""
            import inspect
            name = list(inspect.signature(model.forward).parameters)[0]
            program = torch.export.export(model, (example,),
                                          dynamic_shapes={name: {0: Dim("n", min=1, max=1024)}})
            torch.export.save(program, path)
        '''),
}
