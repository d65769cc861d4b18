"""Held-out gap round 4: correct for every task, written from the notebook's text in other ways:

- trace_mismatches: a no_grad-decorated inner function, filterwarnings(category=TracerWarning) inside
  catch_warnings, trace called with example_inputs= and check_trace=False, flags built by map();
- CondBranchyNet: torch.cond with named branch methods and a pred from Tensor.gt, the MLP written with
  torch.flatten and F.relu;
- export_dynamic_batch: dynamic_shapes as a list, one Dim named after the range;
- aten_ops: a recursive walk of named_children (each module once), counted with collections.Counter and
  returned as a dict; unsupported_ops through a set difference;
- save_scripted: ScriptModule.save; save_exported: dynamic_shapes keyed by forward's first parameter name."""
EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}

CELLS = {
    "trace_mismatches_impl": '''
def trace_mismatches(model, example, inputs):
    @torch.no_grad()
    def _run():
        frozen = torch.jit.trace(model, example_inputs=(example,), check_trace=False)
        return list(map(lambda t: not torch.allclose(frozen(t), model(t)), inputs))

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)
        return _run()
''',
    "cond_net_impl": '''
import torch.nn.functional as F


class CondBranchyNet(nn.Module):
    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    @staticmethod
    def _inverted(pixels):
        return 1.0 - pixels

    @staticmethod
    def _kept(pixels):
        return pixels.clone()

    def forward(self, x):
        bright = x.mean().gt(0.5)
        pixels = torch.cond(bright, self._inverted, self._kept, (x,))
        return self.fc2(F.relu(self.fc1(torch.flatten(pixels, 1))))
''',
    "export_dynamic_impl": '''
def export_dynamic_batch(model, example, min_batch, max_batch):
    rows = torch.export.Dim(f"rows_{min_batch}_to_{max_batch}", min=min_batch, max=max_batch)
    return torch.export.export(model, (example,), dynamic_shapes=[{0: rows}])
''',
    "op_inventory_impl": '''
from collections import Counter as _Counter


def _graph_modules(module, seen=None):
    seen = set() if seen is None else seen
    if id(module) in seen:
        return
    seen.add(id(module))
    if isinstance(module, fx.GraphModule):
        yield module
    for _, child in module.named_children():
        yield from _graph_modules(child, seen)


def aten_ops(ep):
    kinds = (torch._ops.OpOverload, torch._ops.HigherOrderOperator)
    tally = _Counter(str(n.target) for gm in _graph_modules(ep.graph_module) for n in gm.graph.nodes
                     if n.op == "call_function" and isinstance(n.target, kinds))
    return dict(tally)


def unsupported_ops(ep, supported):
    return sorted(set(aten_ops(ep)) - set(supported))
''',
    "save_load_impl": '''
import inspect as _inspect


def save_scripted(model, path):
    torch.jit.script(model).save(path)


def save_exported(model, example, path):
    arg = next(iter(_inspect.signature(model.forward).parameters))
    program = torch.export.export(model, (example,),
                                  dynamic_shapes={arg: {0: torch.export.Dim("n", min=1, max=1024)}})
    torch.export.save(program, path)
''',
}
