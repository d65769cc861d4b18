"""Judge-side helpers for the 15-05 suite (not a test file; loaded by the tests).

Loads probes.py as a module so that the judge builds exactly the same models as the probes,
and computes every expected value on those copies, with warnings kept off stderr.
"""
import contextlib
import functools
import importlib.util
import io
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


_PROGRAMS: dict = {}


def _cache_folder() -> Path:
    """The course's own judge cache: under the checkout, which no sandbox sees (course.sandbox.hidden_paths masks
    it), written by the grader alone."""
    from course import REPO_ROOT
    return REPO_ROOT / "gradebook" / ".judge-cache" / "15-05"


@functools.lru_cache(maxsize=1)
def _fingerprint() -> str:
    import hashlib
    h = hashlib.sha256(torch.__version__.encode())
    for name in ("probes.py", "judge.py"):  # the models and how they are exported
        h.update(Path(__file__).with_name(name).read_bytes())
    return h.hexdigest()[:16]


def programs(kind, hidden, shape, forms, repeats=1) -> dict:
    """{decompose: (op counts, the program as torch.export.save wrote it)} for the judge's own export of the model
    (decomposed: its run_decompositions()). Operator counts depend on the architecture, the repeats and the shapes
    alone, so the program is exported from the suite's own fixed weights (build's seed, no state drawn per student)
    and an example of that shape, and kept in the course's judge cache: one export (and decomposition) per
    (model, repeats) on a grading machine instead of one per submission, about 1.3 s of the judge's CPU (issue 40)."""
    import base64
    import json
    import os
    forms = tuple(forms)
    key = (f"{kind}-h{hidden}-{'x'.join(map(str, shape))}-r{repeats}-{''.join('d' if dec else 'p' for dec in forms)}-"
           f"{_fingerprint()}")
    if key not in _PROGRAMS:
        path = _cache_folder() / f"{key}.json"
        try:
            found = json.loads(_read_trusted(path))
            entry = {dec: (found[str(dec)]["counts"], base64.b64decode(found[str(dec)]["saved"])) for dec in forms}
        except (OSError, ValueError, KeyError, TypeError):
            entry = None
        if entry is None:
            with quiet():
                ep = P._export(kind, hidden, None, torch.full(tuple(shape), 0.25), repeats)
                entry = {}
                for dec in forms:
                    prog = ep.run_decompositions() if dec else ep
                    buf = io.BytesIO()
                    torch.export.save(prog, buf)
                    entry[dec] = (op_counts(prog), buf.getvalue())
            try:
                for level in (path.parent.parent, path.parent):  # .judge-cache and its topic folder: 0700 each
                    level.mkdir(parents=True, exist_ok=True, mode=0o700)
                    os.chmod(level, 0o700, follow_symlinks=False)
                tmp = path.with_name(f".{key}.{os.getpid()}.tmp")
                with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as fh:
                    json.dump({str(dec): {"counts": c, "saved": base64.b64encode(b).decode()} for dec, (c, b) in entry.items()}, fh)
                os.replace(tmp, path)  # whole or not at all: sessions of other workers may read it now
            except OSError:  # no cache here: the next session exports again
                pass
        _PROGRAMS[key] = entry
    return dict(_PROGRAMS[key])


def _read_trusted(path: Path) -> str:
    """The cache file's text, when it and each folder from gradebook/ down are this account's, no link, and
    writable by nobody else (a file another account could have put there is never read); OSError otherwise."""
    import os
    import stat
    top = _cache_folder().parent.parent
    for level in (top, path.parent.parent, path.parent):
        st = os.lstat(level)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
            raise PermissionError(f"{level} is not the grader's own folder")
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with open(fd, encoding="utf-8") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
            raise PermissionError(f"{path} is not the grader's own file")
        return fh.read()


def is_error(v) -> bool:
    return isinstance(v, dict) and "error" in v or isinstance(v, str)


def show(v) -> str:
    if isinstance(v, torch.Tensor):
        return f"a tensor of shape {tuple(v.shape)}"
    if isinstance(v, dict) and "error" in v:
        return f"an error ({v['error'][:200]})"
    return repr(v)[:200]
