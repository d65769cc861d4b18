"""Held-out gap round 8: correct for every task, written from the notebook's text in other ways:

- trace_mismatches: warnings.filterwarnings(category=TracerWarning) inside catch_warnings, the closeness test as
  torch.isclose(...).all() (what torch.allclose computes, NaN not close, equal infinities close), flags built
  by a list comprehension over the inputs;
- CondBranchyNet: a branch-free torch.where on the 0-dim comparison, broadcast over the batch;
- export_dynamic_batch: dynamic_shapes keyed by forward's first parameter name found with inspect;
- aten_ops: collections.Counter over a generator of every graph's qualifying nodes, returned as a plain dict;
  unsupported_ops: a set difference, sorted;
- save_scripted / save_exported: the range given as Dim("b", min=1, max=1024) in a one-entry list."""
import textwrap

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}

CELLS = {
    "trace_mismatches_impl": textwrap.dedent('''
        def trace_mismatches(model, example, inputs):
            with warnings.catch_warnings(), torch.no_grad():
                warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)
                frozen = torch.jit.trace(model, (example,))
                return [not bool(torch.isclose(frozen(t), model(t)).all()) for t in inputs]
        '''),
    "cond_net_impl": textwrap.dedent('''
        class CondBranchyNet(nn.Module):
            def __init__(self, hidden: int = 32):
                super().__init__()
                self.fc1 = nn.Linear(28 * 28, hidden)
                self.fc2 = nn.Linear(hidden, 10)

            def forward(self, x):
                flip = x.mean().gt(0.5)
                x = torch.where(flip, 1.0 - x, x)
                return self.fc2(self.fc1(torch.flatten(x, 1)).relu())
        '''),
    "export_dynamic_impl": textwrap.dedent('''
        import inspect


        def export_dynamic_batch(model, example, min_batch, max_batch):
            name = next(iter(inspect.signature(model.forward).parameters))
            spec = {name: {0: Dim("rows", min=min_batch, max=max_batch)}}
            return torch.export.export(model, args=(example,), dynamic_shapes=spec)
        '''),
    "op_inventory_impl": textwrap.dedent('''
        def _calls(ep):
            kinds = (torch._ops.OpOverload, torch._ops.HigherOrderOperator)
            for gm in ep.graph_module.modules():
                if isinstance(gm, fx.GraphModule):
                    yield from (str(n.target) for n in gm.graph.nodes
                                if n.op == "call_function" and isinstance(n.target, kinds))


        def aten_ops(ep):
            return dict(Counter(_calls(ep)))


        def unsupported_ops(ep, supported):
            return sorted(set(aten_ops(ep)) - set(supported))
        '''),
    "save_load_impl": textwrap.dedent('''
        def save_scripted(model, path):
            scripted = torch.jit.script(model)
            torch.jit.save(scripted, path)


        def save_exported(model, example, path):
            program = torch.export.export(model, (example,), dynamic_shapes=[{0: Dim("b", min=1, max=1024)}])
            torch.export.save(program, path)
        '''),
}
