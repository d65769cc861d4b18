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


_LAYOUT: dict = {}


def random_state(kind: str, hidden: int, gen: torch.Generator) -> dict:
    """A fresh random state_dict for the model ``kind`` (BatchNorm statistics included)."""
    if (kind, hidden) not in _LAYOUT:  # the names, shapes and integer buffers: one model built a session
        _LAYOUT[(kind, hidden)] = {n: t.detach().clone() for n, t in P.build(kind, hidden).state_dict().items()}
    state = {}
    for name, t in _LAYOUT[(kind, hidden)].items():
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


def digest(value) -> str:
    """A fingerprint of the tensors (dtype, shape, bytes) and plain values in ``value``."""
    import hashlib
    h = hashlib.sha1()

    def walk(v):
        if isinstance(v, torch.Tensor):
            t = v.detach().contiguous().cpu()
            h.update(f"T{t.dtype}{tuple(t.shape)}".encode())
            h.update(t.view(torch.uint8).numpy().tobytes() if t.numel() else b"")
        elif isinstance(v, dict):
            for k in sorted(v):
                h.update(f"K{k!r}".encode())
                walk(v[k])
        elif isinstance(v, (list, tuple)):
            h.update(f"L{len(v)}".encode())
            for x in v:
                walk(x)
        else:
            h.update(f"V{v!r}".encode())
    walk(value)
    return h.hexdigest()


_FLAGS: dict = {}


def expected_flags(kind, hidden, state, example, inputs, train=False) -> list:
    """trace_flags of the judge's own model built from ``state``. In eval mode the answer is a function of these
    inputs alone, and the notebooks of one verdict run draw the same ones, so it is computed once a session
    (a jit.trace each time was a quarter of the judge's CPU: issue 40); in training mode dropout draws anew."""
    if train:
        return trace_flags(P.build(kind, hidden, state), example, inputs, train=True)
    key = (kind, hidden, digest(state), digest(example), digest(inputs))
    if key not in _FLAGS:
        while len(_FLAGS) >= 256:
            _FLAGS.pop(next(iter(_FLAGS)))
        _FLAGS[key] = trace_flags(P.build(kind, hidden, state), example, inputs)
    return list(_FLAGS[key])


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
