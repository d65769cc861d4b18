"""Judge-side helpers for the 15-05 suite (not a test file; loaded by the tests).

Loads probes.py as a module so that the judge builds exactly the same models as the probes,
and computes every expected value on those copies, with warnings kept off stderr.
"""
import contextlib
import importlib.util
import sys
import warnings
from pathlib import Path

import torch

_NAME = "course_15_05_probes_judge"
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(_NAME, Path(__file__).with_name("probes.py"))
    _mod = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_mod)
    sys.modules[_NAME] = _mod
P = sys.modules[_NAME]


@contextlib.contextmanager
def quiet():
    """No warning of the judge's own tracing or exporting reaches stderr."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def random_state(kind: str, hidden: int, gen: torch.Generator) -> dict:
    """A fresh random state_dict for the model ``kind`` (BatchNorm statistics included)."""
    model = P.build(kind, hidden)
    state = {}
    for name, t in model.state_dict().items():
        if not t.is_floating_point():
            state[name] = t.clone()
        elif name.endswith("running_var"):
            state[name] = torch.rand(t.shape, generator=gen) * 1.5 + 0.25
        elif name.endswith("running_mean"):
            state[name] = torch.randn(t.shape, generator=gen) * 0.3
        elif name == "scale":
            state[name] = torch.rand(t.shape, generator=gen) + 0.5
        else:
            state[name] = torch.randn(t.shape, generator=gen) * (1.0 / max(t.shape[-1], 1) ** 0.5)
    return state


def dark(n: int, gen: torch.Generator) -> torch.Tensor:
    """A batch of n images with mean pixel well below 0.5 (the branch that does not invert)."""
    return torch.rand(n, 1, 28, 28, generator=gen) * 0.45


def bright(n: int, gen: torch.Generator) -> torch.Tensor:
    """A batch of n images with mean pixel well above 0.5 (the inverting branch)."""
    return 1.0 - dark(n, gen)


def tie(n: int, gen: torch.Generator) -> torch.Tensor:
    """A batch whose mean pixel value is exactly 0.5 in float32 (pixels 0.5 +- d in pairs: not inverted,
    > is strict). d is a multiple of 1/256, so every pixel and every partial sum is exact in float32 and
    the mean is 0.5 whatever order the reduction adds in."""
    d = torch.randint(1, 65, (n, 1, 28, 14), generator=gen).float() / 256
    return torch.cat([0.5 + d, 0.5 - d], dim=3)


def eager(model, inputs):
    with torch.no_grad():
        return [model(x) for x in inputs]


def trace_flags(model, example, inputs, train=False):
    """The reference answer of trace_mismatches, computed on the judge's own model (in training mode if
    ``train``: dropout then draws different masks in the trace and in the eager call)."""
    if train:
        model.train()
    with quiet(), torch.no_grad():
        traced = torch.jit.trace(model, example)
        return [not torch.allclose(traced(x), model(x)) for x in inputs]


def op_counts(ep) -> dict:
    counts = {}
    for gm in ep.graph_module.modules():
        if isinstance(gm, torch.fx.GraphModule):
            for node in gm.graph.nodes:
                if node.op == "call_function" and isinstance(node.target, (torch._ops.OpOverload,
                                                                           torch._ops.HigherOrderOperator)):
                    counts[str(node.target)] = counts.get(str(node.target), 0) + 1
    return counts


_PROGRAMS = {}


def program(kind, hidden, state, example, decompose, repeats=1):
    """The judge's own ExportedProgram of the model (op counts depend on architecture and shapes only);
    the decomposed form is run_decompositions() of the cached export, which it leaves unchanged."""
    key = (kind, hidden, tuple(example.shape), decompose, repeats)
    if key not in _PROGRAMS:
        with quiet():
            _PROGRAMS[key] = (program(kind, hidden, state, example, False, repeats).run_decompositions() if decompose
                              else P._export(kind, hidden, state, example, repeats))
    return _PROGRAMS[key]


def is_error(v) -> bool:
    return isinstance(v, dict) and "error" in v or isinstance(v, str)


def show(v) -> str:
    if isinstance(v, torch.Tensor):
        return f"a tensor of shape {tuple(v.shape)}"
    if isinstance(v, dict) and "error" in v:
        return f"an error ({v['error'][:200]})"
    return repr(v)[:200]
